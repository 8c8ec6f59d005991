/**
 * Go: panics and goroutine dumps (the function on one line, its file and offset on the next:
 * `pkg.(*T).f(...)` + `\t/path/file.go:123 +0x1d`), `created by` lines, and `go test` output
 * (`--- FAIL: TestX`, `    x_test.go:12: message`, testify's `Error Trace:`). Compiler and vet
 * output (`./x.go:12:5: message`) is read as a diagnostic (./diagnostics.ts).
 */
import type { FrameMatch, FrameOrigin } from "../types.ts";
import { framePath, originOf } from "../paths.ts";

/** First elements of the standard library's import paths (they have no dot, unlike module paths). */
const GO_STD = new Set(
  (
    "archive bufio builtin bytes cmp compress container context crypto database debug embed encoding errors " +
    "expvar flag fmt go hash html image index internal io iter log maps math mime net os path plugin reflect " +
    "regexp runtime slices sort strconv strings sync syscall testing text time unicode unique unsafe weak"
  ).split(" "),
);

const LOCATION = /^\s+((?:[A-Za-z]:)?[^\s:]*\.go):(\d+)(?:\s+\+0x[0-9a-f]+)?\s*$/;
const FUNCTION_LINE = /^(?:created by )?[^\s(]+(?:\([^\s)]*\)[^\s(]*)*(?:\(.*\))?(?: in goroutine \d+)?\s*$/;
const TEST_FAIL = /^\s*--- FAIL: ([A-Za-z_]\w*)(?:\/\S*)? \([\d.]+s\)\s*$/;
const TEST_LOG = /^\s{2,}((?:[\w.-]+\/)*[\w.-]+\.go):(\d+): (.*)$/;
const TESTIFY_TRACE = /^\s*Error Trace:\s+((?:[A-Za-z]:)?[^\s:]+\.go):(\d+)\s*$/;

export function goFrame(lines: readonly string[], i: number): FrameMatch | null {
  const line = lines[i] ?? "";
  const next = lines[i + 1];
  if (next !== undefined && /^\S/.test(line) && line.length < 2000) {
    const loc = LOCATION.exec(next);
    if (loc && FUNCTION_LINE.test(line)) return frame(loc[1] ?? "", Number(loc[2]), goFunction(line.trim()), 2);
  }
  let m = LOCATION.exec(line);
  if (m && /\+0x[0-9a-f]+\s*$/.test(line)) return frame(m[1] ?? "", Number(m[2]), null, 1);
  if ((m = TEST_FAIL.exec(line))) {
    return {
      frame: { path: null, line: null, symbol: m[1] ?? null, origin: "project", language: "go" },
      order: "inner-first",
      lines: 1,
      startsStack: true,
    };
  }
  if ((m = TEST_LOG.exec(line)) ?? (m = TESTIFY_TRACE.exec(line))) {
    const match = frame(m[1] ?? "", Number(m[2]), null, 1);
    if (m[3] !== undefined) match.message = m[3];
    match.diagnostic = true;
    return match;
  }
  return null;
}

function frame(location: string, line: number, fn: { symbol: string | null; std: boolean } | null, lines: number): FrameMatch {
  const path = framePath(location);
  const origin: FrameOrigin = fn?.std ? "runtime" : originOf(path, location);
  return { frame: { path, line, symbol: fn?.symbol ?? null, origin, language: "go" }, order: "inner-first", lines };
}

/** `github.com/org/repo/pkg.(*Type).method.func1(0x0, ...)` -> symbol `Type.method`, not in the standard library. */
export function goFunction(text: string): { symbol: string | null; std: boolean } | null {
  const s = text
    .replace(/^created by /, "")
    .replace(/ in goroutine \d+$/, "")
    .replace(/\((?:[^()]|\([^()]*\))*\)$/, "")
    .replace(/\[[^\]]*\]/g, "");
  const slash = s.lastIndexOf("/");
  const dot = s.indexOf(".", slash + 1);
  if (dot === -1) return null;
  const pkg = s.slice(0, dot);
  if (!/^[\w.~%-]+(?:\/[\w.~%-]+)*$/.test(pkg)) return null;
  const parts = s
    .slice(dot + 1)
    .replace(/\(\*?([\w]+)\)/g, "$1")
    .split(".")
    .filter((p) => p !== "" && !/^(?:func|gowrap|deferwrap)\d+$|^\d+$|^glob$/.test(p));
  if (!parts.every((p) => /^[A-Za-z_]\w*$/.test(p))) return null;
  const first = pkg.split("/")[0] ?? "";
  const std = !first.includes(".") && GO_STD.has(first);
  return { symbol: parts.length > 0 ? parts.join(".") : null, std };
}
