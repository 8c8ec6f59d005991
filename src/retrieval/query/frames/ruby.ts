/**
 * Ruby backtraces: the error line (`app/models/user.rb:12:in 'User#name': undefined method ... (NoMethodError)`),
 * its `from path:line:in 'method'` lines, and RSpec's `# ./spec/x_spec.rb:10:in 'block (2 levels) in <top (required)>'`.
 * Ruby before 3.4 quotes the method with a backtick and an apostrophe, 3.4 with two apostrophes and its
 * owner (`'User#name'`, `'Foo::Bar.baz'`).
 */
import type { FrameMatch } from "../types.ts";
import { framePath, originOf } from "../paths.ts";

const RUBY_FRAME = /^\s*(?:from\s+|#\s+)?((?:[A-Za-z]:)?[^\s:'"`]+\.(?:rb|rake|ru|erb|gemspec)):(\d+)(?::in [`']([^'`]+)')?(?=:|\s|$)/;

export function rubyFrame(line: string): FrameMatch | null {
  const m = RUBY_FRAME.exec(line);
  if (!m) return null;
  const location = m[1]!;
  const path = framePath(location);
  return {
    frame: { path, line: Number(m[2]), symbol: m[3] !== undefined ? rubySymbol(m[3]) : null, origin: originOf(path, location), language: "ruby" },
    order: "inner-first",
    lines: 1,
  };
}

/**
 * `block (2 levels) in parse` and `rescue in parse` -> `parse`; `User#name`, `Foo::User.find` -> `User.name`,
 * `User.find`; `<main>`, `<top (required)>`, `<class:User>` -> none.
 */
export function rubySymbol(text: string): string | null {
  const s = text.replace(/^(?:(?:block|rescue|ensure)(?: \(\d+ levels\))? in )+/, "").trim();
  if (s === "" || s.startsWith("<")) return null;
  const parts = s.split(/::|#|\./).filter((p) => p !== "");
  const named = parts.slice(-2);
  return named.every((p) => /^[A-Za-z_]\w*[?!=]?$/.test(p)) ? named.map((p) => p.replace(/[?!=]$/, "")).join(".") : null;
}
