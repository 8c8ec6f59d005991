/**
 * PHP errors and stack traces: `#0 /var/www/app/src/Foo.php(12): App\Foo->bar('x')` (the call made at
 * that line), `PHP Fatal error:  Uncaught TypeError: ... in /var/www/app/src/Parser.php:42`, `thrown in
 * /path/x.php on line 42` and the warnings' `in /path/x.php on line 12`.
 */
import type { FrameMatch } from "../types.ts";
import { framePath, originOf } from "../paths.ts";

/** `#N path(line): ` then the call: a namespaced class's method (`App\Foo->bar(`, `Foo::bar(`) or a function (`parse(`). */
const PHP_FRAME = /^\s*#\d+\s+((?:[A-Za-z]:)?[^\s(]+\.php)\((\d+)\):\s*(?:(?:(?:[\w\\]*\\)?(\w+)(?:->|::))?(\w+)\()?/;
const PHP_LOCATED = /\bin ((?:[A-Za-z]:)?[^\s:]+\.php)(?::(\d+)| on line (\d+))\b/;

export function phpFrame(line: string): FrameMatch | null {
  const f = PHP_FRAME.exec(line);
  if (f) return frame(f[1]!, Number(f[2]), f[4] === undefined ? null : [f[3], f[4]].filter((p) => p !== undefined).join("."), false);
  const d = PHP_LOCATED.exec(line);
  if (d && /^\s*(?:PHP )?(?:Fatal error|Parse error|Warning|Notice|Deprecated|Stack trace|thrown|Uncaught|\S*(?:Error|Exception)\b)/.test(line)) {
    return frame(d[1]!, Number(d[2] ?? d[3]), null, true);
  }
  return null;
}

function frame(location: string, line: number, symbol: string | null, diagnostic: boolean): FrameMatch {
  const path = framePath(location);
  return {
    frame: { path, line, symbol, origin: originOf(path, location), language: "php" },
    order: "inner-first",
    lines: 1,
    ...(diagnostic ? { diagnostic: true } : {}),
  };
}
