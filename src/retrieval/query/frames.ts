/** Stack frames and file paths in reports: Python tracebacks, pytest, Node/Deno/browser stacks (../query-analysis.ts). */
import type { FrameOrigin, StackFrame } from "./types.ts";
import { CODE_EXTENSIONS, EXTENSIONLESS_FILES, LIMITS, LINE_SUFFIX, isProduct } from "./lexicon.ts";

/** Normalises a path-looking string; returns null when it is not a file path. */
export function toPath(raw: string, allowNoExtension: boolean): { path: string; line: number | null } | null {
  let s = raw.trim();
  if (s.length === 0 || s.length > LIMITS.tokenChars) return null;
  let line: number | null = null;
  const suffix = LINE_SUFFIX.exec(s);
  if (suffix) {
    const n = /\d+/.exec(suffix[0]);
    line = n ? Number(n[0]) : null;
    s = s.slice(0, suffix.index);
  }
  s = s.replace(/\\/g, "/").replace(/^(?:\.\/)+/, "");
  if (!/^(?:[A-Za-z]:)?[\w.@~+\-/$[\]]+$/.test(s) || /\/\//.test(s)) return null;
  const segments = s.split("/").filter((x) => x !== "");
  const base = segments[segments.length - 1];
  if (base === undefined) return null;
  const hasSlash = segments.length > 1;
  const dot = base.lastIndexOf(".");
  const ext = dot > 0 ? base.slice(dot + 1).toLowerCase() : "";
  // Dotfiles (".gitmodules", ".env") only when quoted as code.
  if (!hasSlash && base.startsWith(".") && allowNoExtension && /^\.[\w-]+(?:\.[\w-]+)*$/.test(base)) return { path: s, line };
  const known = CODE_EXTENSIONS.has(ext) || EXTENSIONLESS_FILES.has(base);
  if (!known && !(allowNoExtension && hasSlash && /^[\w.@+-]+$/.test(base))) return null;
  if (!hasSlash && (isProduct(base) || /^\d/.test(base) || base.startsWith("."))) return null;
  // "foo.bar" with an unknown extension is a dotted name, not a file.
  return { path: s.replace(/\/+$/, ""), line };
}

function frameOrigin(path: string): FrameOrigin {
  const p = path.replace(/\\/g, "/");
  if (/^(?:node:|internal\/|ext:|deno:|bun:|native\b|<|\[)/.test(p) || p.includes("<frozen ")) return "runtime";
  if (/\/(?:site-packages|dist-packages|node_modules)\//.test(p) || /^(?:site-packages|node_modules)\//.test(p)) return "library";
  if (/^https?:\/\//.test(p) || /\/\.cargo\/registry\/|\/go\/pkg\/mod\/|\/\.m2\/repository\//.test(p)) return "library";
  if (/(?:^|\/)lib\/python\d+(?:\.\d+)?\//i.test(p) || /(?:^|\/)python\d*\/lib\//i.test(p)) return "runtime";
  if (/\/usr\/lib\/python|\/lib\/node\/|\/rustc\//.test(p)) return "runtime";
  return "project";
}

/** Strips URL schemes and library prefixes from a frame location. */
function framePath(location: string): string | null {
  let s = location.trim();
  if (s === "" || /^<.*>$/.test(s) || s === "native" || /^(?:node:|internal\/|ext:|deno:|bun:)/.test(s) || s.startsWith("index ")) {
    return null;
  }
  s = s.replace(/^webpack(?:-internal)?:\/\/\/?(?:\([^)]*\)\/)?/, "").replace(/^file:\/\//, "");
  if (/^https?:\/\//.test(s)) {
    try {
      s = new URL(s).pathname.replace(/^\/+/, "");
    } catch {
      return null;
    }
  }
  s = s.replace(/\?.*$/, "").replace(/\\/g, "/").replace(/^\/([A-Za-z]:\/)/, "$1").replace(/^(?:\.\/)+/, "");
  const lib = /^.*\/(?:site-packages|dist-packages|node_modules)\//.exec(s);
  if (lib) s = s.slice(lib[0].length);
  return s === "" ? null : s;
}

// ---------------------------------------------------------------------------------------------
// Stack frames.

export const PY_FRAME = /^\s*File "([^"]+)", line (\d+)(?:, in (.+?))?\s*$/;
const PYTEST_FRAME = /^\s*([\w./\\:-]+\.pyx?):(\d+):(?: in ([\w.<>]+)|\s+(?:[A-Z]\w*)?)?\s*$/;
const JS_FRAME_WITH_FN = /^\s*at (?:async )?(?:new )?(.+?) \((.+?)\)\s*$/;
const JS_FRAME_BARE = /^\s*at (?:async )?(\S+?)\s*$/;
const FF_FRAME = /^\s*([\w$.<>/]*)@(.+?:\d+:\d+)\s*$/;
const LOCATION = /^(.*?)(?::(\d+))?(?::(\d+))?$/;

export type FrameLine = { frame: StackFrame; stack: number; order: "outer-first" | "inner-first" };

export function parseFrameLine(line: string): { frame: StackFrame; order: FrameLine["order"] } | null {
  let m = PY_FRAME.exec(line);
  if (m) {
    const location = m[1] ?? "";
    const path = framePath(location);
    return {
      frame: {
        path,
        line: Number(m[2]),
        symbol: m[3] !== undefined && !m[3].startsWith("<") ? m[3].trim() : null,
        origin: path === null ? "runtime" : frameOrigin(location),
        language: "python",
      },
      order: "outer-first",
    };
  }
  m = PYTEST_FRAME.exec(line);
  if (m) {
    const location = m[1] ?? "";
    const path = framePath(location);
    return {
      frame: {
        path,
        line: Number(m[2]),
        symbol: m[3] !== undefined && !m[3].startsWith("<") ? m[3] : null,
        origin: path === null ? "runtime" : frameOrigin(location),
        language: "python",
      },
      order: "outer-first",
    };
  }
  let fn: string | null = null;
  let location: string | null = null;
  m = JS_FRAME_WITH_FN.exec(line);
  if (m) {
    fn = m[1] ?? null;
    location = m[2] ?? null;
  } else if ((m = JS_FRAME_BARE.exec(line)) && /:\d+(?::\d+)?$/.test(m[1] ?? "")) {
    location = m[1] ?? null;
  } else if ((m = FF_FRAME.exec(line))) {
    fn = m[1] || null;
    location = m[2] ?? null;
  }
  if (location === null) return null;
  // "at Array.map (<anonymous>)", "at async Promise.all (index 0)": location without a file
  const loc = LOCATION.exec(location.trim());
  const file = loc?.[1] ?? location;
  const path = framePath(file);
  return {
    frame: {
      path,
      line: loc?.[2] !== undefined ? Number(loc[2]) : null,
      symbol: fn !== null ? cleanJsFunction(fn) : null,
      origin: path === null ? "runtime" : frameOrigin(file),
      language: "javascript",
    },
    order: "inner-first",
  };
}

function cleanJsFunction(fn: string): string | null {
  const s = fn
    .replace(/\s*\[as [^\]]+\]$/, "")
    .replace(/^async /, "")
    .replace(/^new /, "")
    .replace(/\.<anonymous>$/, "")
    .replace(/^<anonymous>$/, "")
    .trim();
  if (s === "" || s.includes("<") || s === "eval") return null;
  return s;
}

// ---------------------------------------------------------------------------------------------
// Markdown structure.
