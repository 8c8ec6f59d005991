/**
 * Rust: panic messages (`thread 'main' panicked at src/lib.rs:10:5:` since 1.73, and the older
 * `panicked at 'message', src/lib.rs:10:5`), RUST_BACKTRACE frames (`  3: crate::module::func` with
 * `at ./src/lib.rs:10:5` on the next line, or `0x55.. - crate::func::h0123..` in older output), and
 * rustc's locations (`--> src/main.rs:4:5`, `::: path:line:col`).
 */
import type { FrameMatch, FrameOrigin } from "../types.ts";
import { framePath, originOf } from "../paths.ts";

const PANIC_NEW = /^\s*thread '[^']*' panicked at ((?:[A-Za-z]:)?[^\s:]+\.rs):(\d+):(\d+):?\s*$/;
const PANIC_OLD = /^\s*thread '[^']*' panicked at '(.*)', ((?:[A-Za-z]:)?[^\s:]+\.rs):(\d+)(?::\d+)?\s*$/;
const BACKTRACE_SYMBOL = /^\s*(\d+):\s+(?:0x[0-9a-f]+ - )?(\S.*?)\s*$/;
const BACKTRACE_AT = /^\s+at ((?:[A-Za-z]:)?[^\s:]+\.rs):(\d+)(?::\d+)?\s*$/;
const RUSTC_LOCATION = /^\s*(?:-->|:::) ((?:[A-Za-z]:)?[^\s:]+\.rs):(\d+)(?::\d+)?\s*$/;

/** Crates of the toolchain: their frames are the runtime's. */
const RUNTIME_CRATES = /^(?:std|core|alloc|test|proc_macro|panic_unwind|panic_abort|backtrace|rust_begin_unwind|rust_panic|__rust\w*|_start|__libc_start\w*|main|<unknown>)$/;

export function rustFrame(lines: readonly string[], i: number): FrameMatch | null {
  const line = lines[i] ?? "";
  let m = PANIC_NEW.exec(line);
  if (m) return frame(m[1] ?? "", Number(m[2]), null, 1, false);
  if ((m = PANIC_OLD.exec(line))) {
    const match = frame(m[2] ?? "", Number(m[3]), null, 1, false);
    match.message = m[1] ?? "";
    return match;
  }
  if ((m = RUSTC_LOCATION.exec(line))) return { ...frame(m[1] ?? "", Number(m[2]), null, 1, false), startsStack: /-->/.test(line), diagnostic: true };
  if ((m = BACKTRACE_SYMBOL.exec(line))) {
    const raw = m[2] ?? "";
    const at = BACKTRACE_AT.exec(lines[i + 1] ?? "");
    // Without a location, only a Rust path (`a::b`) makes a numbered line a frame.
    if (!at && !(/::/.test(raw) && !/\s/.test(raw.replace(/<[^>]*>/g, "")))) return null;
    const symbol = rustSymbol(raw);
    const runtime = symbol === null || RUNTIME_CRATES.test(symbol.split(".")[0] ?? "");
    if (at) {
      const match = frame(at[1] ?? "", Number(at[2]), symbol, 2, runtime);
      match.startsStack = m[1] === "0";
      return match;
    }
    return {
      frame: { path: null, line: null, symbol, origin: runtime ? "runtime" : "project", language: "rust" },
      order: "inner-first",
      lines: 1,
      startsStack: m[1] === "0",
    };
  }
  return null;
}

function frame(location: string, line: number, symbol: string | null, lines: number, runtime: boolean): FrameMatch {
  const path = framePath(location);
  const origin: FrameOrigin = runtime && originOf(path, location) !== "library" ? "runtime" : originOf(path, location);
  return { frame: { path, line, symbol, origin, language: "rust" }, order: "inner-first", lines };
}

/**
 * `<serde_json::de::Deserializer<R> as serde::de::Deserializer>::deserialize_map::h0123456789abcdef`
 * -> `serde_json.de.Deserializer.deserialize_map` (the implementing type, no generics, no hash,
 * closures folded into their function); null when nothing name-like is left.
 */
export function rustSymbol(raw: string): string | null {
  let s = raw.replace(/::h[0-9a-f]{16}$/, "").replace(/\s+\+\s*0x[0-9a-f]+$/, "");
  // `<T as Trait>::method`: the implementing type.
  const impl = /^<(.+?) as [^>]+(?:<[^>]*>)?>::(.+)$/.exec(s);
  if (impl) s = `${impl[1]}::${impl[2]}`;
  s = s.replace(/^<impl [^>]*?(?:<[^>]*>)? for ([^>]+)>::/, "$1::");
  for (let guard = 0; guard < 8 && /<[^<>]*>/.test(s); guard++) s = s.replace(/<[^<>]*>/g, "");
  const parts = s
    .replace(/^&/, "")
    .split("::")
    .map((p) => p.trim())
    .filter((p) => p !== "" && !/^\{\{.*\}\}$/.test(p) && !/^_?\{\{/.test(p));
  if (parts.length === 0 || !parts.every((p) => /^[A-Za-z_]\w*$/.test(p))) return null;
  return parts.join(".");
}
