/**
 * PHP errors and stack traces: `#0 /var/www/app/src/Foo.php(12): App\Foo->bar('x')` (the call made at
 * that line), `PHP Fatal error:  Uncaught TypeError: ... in /var/www/app/src/Parser.php:42`, `thrown in
 * /path/x.php on line 42` and the warnings' `in /path/x.php on line 12`.
 */
import type { FrameMatch } from "../types.ts";
import { framePath, originOf } from "../paths.ts";

const PHP_FRAME = /^\s*#\d+\s+((?:[A-Za-z]:)?[^\s(]+\.php)\((\d+)\):\s*(?:[\w\\]+(?:->|::))?([\w\\]+)?/;
const PHP_LOCATED = /\bin ((?:[A-Za-z]:)?[^\s:]+\.php)(?::(\d+)| on line (\d+))\b/;

export function phpFrame(line: string): FrameMatch | null {
  const f = PHP_FRAME.exec(line);
  if (f) return frame(f[1]!, Number(f[2]), phpSymbol(line, f[3]), false);
  const d = PHP_LOCATED.exec(line);
  if (d && /^\s*(?:PHP )?(?:Fatal error|Parse error|Warning|Notice|Deprecated|Stack trace|thrown|Uncaught|\S*(?:Error|Exception)\b)/.test(line)) {
    return frame(d[1]!, Number(d[2] ?? d[3]), null, true);
  }
  return null;
}

function frame(location: string, line: number, symbol: string | null, diagnostic: boolean): FrameMatch {
  const path = framePath(location);
  return {
    frame: { path, line, symbol, origin: /\/vendor\//.test(location) ? "library" : originOf(path, location), language: "php" },
    order: "inner-first",
    lines: 1,
    ...(diagnostic ? { diagnostic: true } : {}),
  };
}

/** `App\Http\Foo->bar(` -> `Foo.bar`; `parse(` -> `parse`; `{main}` -> none. */
function phpSymbol(line: string, called: string | undefined): string | null {
  const m = /\):\s*(?:(?:[\w\\]*\\)?(\w+)(?:->|::))?(\w+)\(/.exec(line);
  if (!m || called === undefined) return null;
  return m[1] !== undefined ? `${m[1]}.${m[2]}` : m[2]!;
}
