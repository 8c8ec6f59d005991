/**
 * Native stacks: gdb (`#1  0x... in func (args) at file.c:123`, arguments wrapped over lines),
 * lldb (`frame #0: 0x... a.out\`func(args) at file.c:12:3`), sanitizers (`#0 0x4f5a in func
 * /path/file.c:12:3`, `(module+0x..)`, `SUMMARY: AddressSanitizer: ... file.c:12 in func`) and
 * valgrind (`at 0x...: func (file.c:12)`, `by 0x...: func (in /usr/lib/lib.so)`).
 */
import type { FrameMatch, FrameOrigin, ReportLanguage } from "../types.ts";
import { framePath, languageOfPath, pathOrigin } from "../paths.ts";

/** `#N 0x... in` (gdb, sanitizers), or gdb's `#N  func (...) at` for inlined frames (two spaces, no address). */
const NUMBERED = /^\s*#(\d+)(?:\s+(0x[0-9a-f]+)(?: in)?|\s{2,})\s*(\S.*?)\s*$/;
const GDB_AT = /^(.*?)\s+at ((?:[A-Za-z]:)?[^\s:]+):(\d+)(?::\d+)?$/;
const GDB_FROM = /^(.*?)\s+from (\S+)$/;
const SANITIZER_SOURCE = /^(.+?) ((?:[A-Za-z]:)?[^\s():]+\.[A-Za-z][\w+]{0,5}):(\d+)(?::\d+)?$/;
const SANITIZER_MODULE = /^(?:(.+?) )?\(([^()\s]+?)\+0x[0-9a-f]+\)$/;
const LLDB = /^\s*\*?\s*frame #(\d+): 0x[0-9a-f]+ ([^\s`]+)`(.+?)(?: at ((?:[A-Za-z]:)?[^\s:]+):(\d+)(?::\d+)?)?\s*$/;
const VALGRIND = /^(?:==\d+==)?\s+(at|by) 0x[0-9A-Fa-f]+: (.+?) \((?:in (.+)|((?:[A-Za-z]:)?[^\s():]+):(\d+))\)\s*$/;
const SUMMARY = /^\s*SUMMARY: \w+Sanitizer: \S+ ((?:[A-Za-z]:)?[^\s:]+):(\d+)(?::\d+)? in (.+?)\s*$/;

/** The C library, the C++ runtime and the tools' own interceptors. */
const RUNTIME_SYMBOLS = /^(?:__|_[A-Z]|std\.|__gnu_cxx\.|__cxxabiv1\.|__sanitizer|__asan|__interceptor|_start$|start$|abort$|raise$|exit$|(?:_int_|sys)?(?:malloc|free|calloc|realloc)$|mem(?:cpy|move|set|cmp)$|str(?:len|cmp|ncmp|cpy|ncpy|dup|chr|rchr)$|printf$|fprintf$|sprintf$|snprintf$|vfprintf$|pthread_\w+$|start_thread$|clone3?$)/;

export function nativeFrame(lines: readonly string[], i: number): FrameMatch | null {
  const line = lines[i] ?? "";
  let m = LLDB.exec(line);
  if (m) {
    const symbol = nativeSymbol(m[3] ?? "");
    const module = m[2] ?? "";
    return make(m[4] ?? null, m[5] !== undefined ? Number(m[5]) : null, symbol, module, 1, m[1] === "0");
  }
  if ((m = VALGRIND.exec(line))) {
    const symbol = /^\(below main\)$/.test(m[2] ?? "") ? null : nativeSymbol(m[2] ?? "");
    return make(m[4] ?? null, m[5] !== undefined ? Number(m[5]) : null, symbol, m[3] ?? "", 1, m[1] === "at");
  }
  if ((m = SUMMARY.exec(line))) return make(m[1] ?? null, Number(m[2]), nativeSymbol(m[3] ?? ""), "", 1, true);
  if (!(m = NUMBERED.exec(line))) return null;
  const first = m[1] === "0";
  const address = m[2] !== undefined;
  let rest = m[3] ?? "";
  let taken = 1;
  // gdb wraps long argument lists: the location ends a later, indented line.
  if (!GDB_AT.test(rest) && !GDB_FROM.test(rest) && unbalanced(rest)) {
    for (let j = i + 1; j < Math.min(lines.length, i + 5); j++) {
      const more = lines[j] ?? "";
      if (!/^\s+\S/.test(more)) break;
      rest += ` ${more.trim()}`;
      if (!unbalanced(rest)) {
        taken = j - i + 1;
        break;
      }
    }
    if (unbalanced(rest)) {
      rest = m[3] ?? "";
      taken = 1;
    }
  }
  rest = rest.replace(/\s*\(BuildId: [0-9a-f]+\)$/, "");
  let g = GDB_AT.exec(rest);
  if (!address && !g && !GDB_FROM.test(rest)) return null;
  if (g) return make(g[2] ?? null, Number(g[3]), nativeSymbol(gdbFunction(g[1] ?? "")), "", taken, first);
  if ((g = GDB_FROM.exec(rest))) return make(null, null, nativeSymbol(gdbFunction(g[1] ?? "")), g[2] ?? "", taken, first);
  if ((g = SANITIZER_MODULE.exec(rest))) return make(null, null, g[1] !== undefined ? nativeSymbol(g[1]) : null, g[2] ?? "", taken, first);
  if ((g = SANITIZER_SOURCE.exec(rest))) return make(g[2] ?? null, Number(g[3]), nativeSymbol(g[1] ?? ""), "", taken, first);
  // gdb without debug information: `#3  0x... in func () ` or `in ?? ()`.
  if ((g = /^(\S.*?) \(.*\)$/.exec(rest)) && address) {
    return make(null, null, nativeSymbol(g[1] ?? ""), "", taken, first);
  }
  return null;
}

/** Test frameworks that wrap a project's frames (GoogleTest's `testing::` namespace and its sources). */
const LIBRARY_SYMBOLS = /^testing\./;
const LIBRARY_PATHS = /(?:^|\/)(?:gtest|gmock|googletest|googlemock|catch2|doctest)(?:[-_/][^/]*)?$|\/(?:gtest|gmock|googletest|googlemock)\//i;

function make(location: string | null, line: number | null, symbol: string | null, module: string, lines: number, startsStack: boolean): FrameMatch {
  const path = location === null ? null : framePath(location);
  let origin: FrameOrigin;
  if (symbol !== null && RUNTIME_SYMBOLS.test(symbol)) origin = "runtime";
  else if ((symbol !== null && LIBRARY_SYMBOLS.test(symbol)) || (path !== null && LIBRARY_PATHS.test(path))) origin = "library";
  else if (path !== null) origin = /(?:^|\/)vg_[\w]+\.c$/.test(path) ? "runtime" : pathOrigin(location ?? "");
  else if (module !== "") origin = pathOrigin(module.replace(/\\/g, "/")) === "project" && !/^(?:lib[\w+-]*\.(?:so|dylib)|[\w-]+\.dll)/i.test(module) ? "project" : "runtime";
  else origin = symbol === null ? "runtime" : "project";
  const language: ReportLanguage = (path !== null ? languageOfPath(path) : null) ?? (symbol?.includes(".") ? "cpp" : "c");
  return { frame: { path, line, symbol, origin, language }, order: "inner-first", lines, startsStack };
}

function unbalanced(s: string): boolean {
  let depth = 0;
  for (const c of s) {
    if (c === "(") depth++;
    else if (c === ")") depth--;
  }
  return depth > 0;
}

/** gdb prints `func (args)`: the function is what comes before the argument list. */
function gdbFunction(s: string): string {
  const open = s.indexOf(" (");
  return open === -1 ? s : s.slice(0, open);
}

/**
 * `fmt::v10::detail::buffer<char>::grow(unsigned long) const` -> `fmt.v10.detail.buffer.grow`;
 * `jv_cmp` -> `jv_cmp`; null for `??`, operators and what is not name-like.
 */
export function nativeSymbol(raw: string): string | null {
  let s = raw.trim().replace(/\s+\+\s*\d+$/, "").replace(/\s+const$/, "").replace(/\[abi:\w+\]/g, "");
  s = s.replace(/\(anonymous namespace\)::/g, "");
  if (/\boperator\b/.test(s)) return null;
  // Argument list at the end (balanced).
  if (s.endsWith(")")) {
    let depth = 0;
    for (let k = s.length - 1; k >= 0; k--) {
      if (s[k] === ")") depth++;
      else if (s[k] === "(" && --depth === 0) {
        s = s.slice(0, k).trim();
        break;
      }
    }
  }
  for (let guard = 0; guard < 8 && /<[^<>]*>/.test(s); guard++) s = s.replace(/<[^<>]*>/g, "");
  // A return type before the name (`void Foo::bar`): the last word.
  s = s.split(/\s+/).pop() ?? "";
  s = s.replace(/^[*&]+/, "");
  const parts = s.split("::").filter((p) => p !== "");
  if (parts.length === 0 || !parts.every((p) => /^~?[A-Za-z_]\w*$/.test(p))) return null;
  return parts.map((p) => p.replace(/^~/, "")).join(".");
}
