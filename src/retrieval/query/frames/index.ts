/**
 * Stack frames and located diagnostics in reports, in every language the analysis reads
 * (../../query-analysis.ts). Each family has its reader; this one tries them in an order where no
 * reader can take another's line: Python, Ruby (`x.rb:12:in 'm'`), .NET (`at Ns.Class.M(String s) in x.cs:line
 * 3`) and JVM (`at pkg.Class.m(File.java:1)`, no space before the parenthesis) before V8 (`at fn
 * (file:1:2)`), Go and Rust (two-line frames), PHP (`#0 x.php(12): f()`) before native stacks (`#0 0x...
 * in f`), then compiler-style `file:line:col: message` lines.
 */
import type { FrameMatch, StackFrame } from "../types.ts";
import { LIMITS } from "../lexicon.ts";
import { pythonFrame } from "./python.ts";
import { rubyFrame } from "./ruby.ts";
import { dotnetFrame } from "./dotnet.ts";
import { phpFrame } from "./php.ts";
import { jvmFrame } from "./jvm.ts";
import { jsFrame } from "./js.ts";
import { goFrame } from "./go.ts";
import { rustFrame } from "./rust.ts";
import { nativeFrame } from "./native.ts";
import { diagnosticFrame } from "./diagnostics.ts";

export { PY_FRAME } from "./python.ts";

/** The frame at line i of a report, or null. */
export function frameAt(lines: readonly string[], i: number): FrameMatch | null {
  const line = lines[i] ?? "";
  if (line.length > LIMITS.frameLineChars || line.trim() === "") return null;
  // Every frame has a number (line, address, frame index) on its line or, for Go's function line, on
  // the next one; JVM frames without a file say `at`, GCC's function context `: In`.
  if (!/\d/.test(line) && !/\d/.test(lines[i + 1] ?? "") && !/\bat |: In /.test(line)) return null;
  return (
    pythonFrame(line) ?? rubyFrame(line) ?? dotnetFrame(line) ?? jvmFrame(line) ?? jsFrame(line) ?? goFrame(lines, i) ?? rustFrame(lines, i) ??
    phpFrame(line) ?? nativeFrame(lines, i) ?? diagnosticFrame(line)
  );
}

/**
 * A line that opens a new stack: Python's `Traceback`, JVM `Exception in thread` / `Caused by:` /
 * `Suppressed:`, Go's `goroutine N [state]:`, Rust's `stack backtrace:`, gdb's `bt`, sanitizers'
 * `ERROR:` and valgrind's error headers. "skip" lines carry nothing else worth reading.
 */
export function stackHeader(line: string): "skip" | "keep" | null {
  if (/^\s*(?:Traceback \(most recent call last\)|Stack trace|Stacktrace|stack backtrace:|goroutine \d+ \[[^\]]*\]:|\(gdb\) (?:bt|backtrace|where)\b)/i.test(line)) return "skip";
  if (/^\s*(?:Exception in thread |Caused by: |Suppressed: |==\d+==\s*ERROR: |(?:==\d+==\s+)?(?:Invalid (?:read|write|free)|Conditional jump|Use of uninitialised|Syscall param|Mismatched free)|WARNING: ThreadSanitizer|panic: |fatal error: )/.test(line)) return "keep";
  return null;
}

/** `... 5 more` (JVM), `[... skipping N frames]`, `note: Some details are omitted`: nothing to read. */
export function isStackNoise(line: string): boolean {
  return /^\s*(?:\.\.\. \d+ (?:more|common frames omitted)|note: Some details are omitted|\[signal \w|exit status \d+$)/.test(line);
}

/** A report's frames innermost first: Python prints the outermost call first, the other runtimes the innermost. */
export const innermostFirst = (frames: readonly StackFrame[]): StackFrame[] => (frames[0]?.language === "python" ? [...frames].reverse() : [...frames]);
