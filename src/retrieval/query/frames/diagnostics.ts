/**
 * Compiler, linter and checker output that names a location: GCC, Clang, Go's compiler and vet,
 * UBSan, javac, Swift, Python warnings (`file.c:12:5: error: message`, `file.go:12:5: message`,
 * include chains `In file included from a.c:3:`), GCC's `file.h: In function 'f':`, MSVC and tsc
 * (`file.cpp(12): error C2065: ...`, `file.ts(12,5): error TS2345: ...`) and Maven's javac output
 * (`[ERROR] /path/Foo.java:[12,5] message`). The message after the location is still read.
 */
import type { FrameMatch } from "../types.ts";
import { framePath, languageOfPath, pathOrigin } from "../paths.ts";

const PATH = String.raw`(?:[A-Za-z]:)?[^\s:()"'<>|]*[^\s:()"'<>|.]\.[A-Za-z][\w+]{0,5}`;
const PREFIX = String.raw`^\s*(?:\[[\w .-]+\]\s*)?(?:\d+>)?`;
const COLON = new RegExp(`${PREFIX}(In file included from |from )?(${PATH}):(\\d+)(?::(\\d+))?(?:(?::|\\s+-)\\s*(.*)|,)?$`);
const IN_FUNCTION = new RegExp(`${PREFIX}(${PATH}): In (?:member |static member )?function ['‘\`](.+?)['’]:\\s*$`);
const PARENS = new RegExp(`${PREFIX}((?:[A-Za-z]:)?[^:()"<>|]*?[^\\s:()"<>|]\\.[A-Za-z][\\w+]{0,5})\\((\\d+)(?:,\\s*\\d+)?\\)\\s?:\\s*((?:fatal error|error|warning|note|message)\\b.*)$`);
const MAVEN = new RegExp(`^\\s*\\[(?:ERROR|WARNING|WARN)\\]\\s+(${PATH}):\\[(\\d+),\\d+\\]\\s*(.*)$`);

/** Messages that continue the diagnostic before them rather than open a new one. */
const CONTINUATION = /^(?:note\b|required from|in instantiation|in 'constexpr'|in ‘constexpr’|in expansion|in definition of macro|\s)/;

export function diagnosticFrame(line: string): FrameMatch | null {
  if (line.length > 4000) return null;
  let m = COLON.exec(line);
  if (m) {
    const [, include, location = "", lineNo, column, message] = m;
    // A bare `file.c:12` is a mention, read with the prose; a location needs a column, a message or an include.
    if (include === undefined && column === undefined && (message === undefined || message.trim() === "")) return null;
    const match = make(location, Number(lineNo), null, message ?? "");
    if (match === null) return null;
    match.startsStack = include === undefined && !CONTINUATION.test(message ?? "") && !/^In file included/.test(line.trim());
    return match;
  }
  if ((m = IN_FUNCTION.exec(line))) {
    const match = make(m[1] ?? "", null, functionName(m[2] ?? ""), "");
    if (match) match.startsStack = true;
    return match;
  }
  if ((m = PARENS.exec(line)) ?? (m = MAVEN.exec(line))) {
    const match = make(m[1] ?? "", Number(m[2]), null, m[3] ?? "");
    if (match) match.startsStack = !/^note\b/.test(m[3] ?? "");
    return match;
  }
  return null;
}

function make(location: string, line: number | null, symbol: string | null, message: string): FrameMatch | null {
  const language = languageOfPath(location);
  if (language === null) return null;
  const path = framePath(location);
  if (path === null) return null;
  const match: FrameMatch = { frame: { path, line, symbol, origin: pathOrigin(location), language }, order: "inner-first", lines: 1, diagnostic: true };
  // The warning's flag (`[-Wunused-variable]`) names the compiler's option, not the code.
  const text = message.replace(/\s*\[-W[\w=+-]*\]\s*$/, "").trim();
  if (text !== "") match.message = text;
  return match;
}

/** `void DemoWindow::acquisitionFinished()` -> `DemoWindow.acquisitionFinished`. */
function functionName(signature: string): string | null {
  let s = signature.replace(/\s+const$/, "");
  const open = s.indexOf("(");
  if (open !== -1) s = s.slice(0, open);
  for (let guard = 0; guard < 8 && /<[^<>]*>/.test(s); guard++) s = s.replace(/<[^<>]*>/g, "");
  const name = s.trim().split(/\s+/).pop() ?? "";
  const parts = name.replace(/^[*&]+/, "").split("::").filter((p) => p !== "");
  return parts.length > 0 && parts.every((p) => /^~?[A-Za-z_]\w*$/.test(p)) ? parts.join(".") : null;
}
