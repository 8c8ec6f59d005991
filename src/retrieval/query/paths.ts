/** File paths in reports: what looks like a path, and where a stack frame's file lives (./extract.ts, ./frames/). */
import type { FrameOrigin, ReportLanguage } from "./types.ts";
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

/**
 * Where a frame's file lives, from its path as printed: the runtime (interpreters' and compilers'
 * standard libraries, system headers and libraries), installed libraries (package caches of every
 * ecosystem), or the project.
 */
export function pathOrigin(path: string): FrameOrigin {
  const p = path.replace(/\\/g, "/");
  if (/^(?:node:|ext:|deno:|bun:|native\b|<|\[)/.test(p) || p.includes("<frozen ")) return "runtime";
  if (/\/(?:site-packages|dist-packages|node_modules)\//.test(p) || /^(?:site-packages|node_modules)\//.test(p)) return "library";
  // Package caches: Go modules, Cargo registries and git checkouts, Maven, Gradle, vendored Go code.
  if (/^https?:\/\//.test(p) || /\/\.cargo\/(?:registry|git)\/|\/pkg\/mod\/|\/\.m2\/repository\/|\/\.gradle\/caches\//.test(p)) return "library";
  if (/(?:^|\/)vendor\/(?:github\.com|golang\.org|gopkg\.in|google\.golang\.org|go\.\w+)\//.test(p)) return "library";
  // Ruby's installed gems (RubyGems' and Bundler's `gems/<name>-<version>/`) and PHP's Composer packages (`vendor/`).
  if (/\/gems\/[\w.-]+-\d[\w.]*\//.test(p) || /(?:^|\/)vendor\/[\w.-]+\/.+\.php$/.test(p)) return "library";
  if (/(?:^|\/)lib\/python\d+(?:\.\d+)?\//i.test(p) || /(?:^|\/)python\d*\/lib\//i.test(p)) return "runtime";
  if (/\/usr\/lib\/python|\/lib\/node\/|\/rustc\/|^\/?rustc\/[0-9a-f]{7,}\//.test(p)) return "runtime";
  // Rust's own library in old panic messages (src/libcore/option.rs) and new ones (library/core/src/...).
  if (/^(?:src\/lib(?:core|std|alloc)\/|library\/(?:core|std|alloc)\/src\/)/.test(p)) return "runtime";
  // Go's GOROOT: /usr/local/go/src, /usr/lib/go-1.21/src, Homebrew's libexec, C:/Program Files/Go/src.
  if (/(?:^|\/)(?:usr\/local\/go|usr\/lib\/go(?:-[\d.]+)?|libexec|Program Files\/Go|sdk\/go[\d.]+|goroot)\/src\//.test(p)) return "runtime";
  // C and C++: system headers and libraries, glibc's own sources, compiler runtimes, MSVC and the Windows SDK.
  if (/^\/(?:usr\/(?:local\/)?(?:include|lib\d*|libexec)|lib\d*|System\/Library|Library\/Developer|Applications\/Xcode[^/]*\.app)\//.test(p)) return "runtime";
  if (/^(?:\.\.?\/)+(?:sysdeps|nptl|csu|stdlib|string|malloc|libio|elf|posix|assert)\//.test(p) || /\/libsanitizer\/|(?:^|\/)compiler-rt\//.test(p)) return "runtime";
  if (/^[A-Za-z]:\/Program Files(?: \(x86\))?\/(?:Microsoft Visual Studio|Windows Kits)\//i.test(p)) return "runtime";
  return "project";
}

/**
 * A frame's location made comparable with repository paths: URL schemes and query strings cut,
 * backslashes turned, installed-library prefixes cut to the package (site-packages, node_modules),
 * the module (Go's module cache, version dropped) or the crate (Cargo's registry, version dropped).
 * Absolute project paths are kept whole: the ranking matches a repository path that is their suffix.
 */
export function framePath(location: string): string | null {
  let s = location.trim();
  if (s === "" || /^<.*>$/.test(s) || s === "native" || /^(?:node:|ext:|deno:|bun:)/.test(s) || s.startsWith("index ")) {
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
  // Go: .../pkg/mod/github.com/org/repo/v2@v2.1.0/sub/file.go -> github.com/org/repo/v2/sub/file.go
  const goMod = /^(?:.*\/)?pkg\/mod\/(.+?)@[^/]+\/(.+)$/.exec(s);
  if (goMod) s = `${goMod[1]}/${goMod[2]}`;
  // Rust: .../.cargo/registry/src/<index>/serde_json-1.0.108/src/de.rs -> serde_json/src/de.rs
  const crate = /^.*\/\.cargo\/registry\/src\/[^/]+\/([\w-]+?)-\d+\.\d+\.\d+[^/]*\/(.+)$/.exec(s);
  if (crate) s = `${crate[1]}/${crate[2]}`;
  return s === "" ? null : s;
}

/** A frame's origin: runtime when it has no file, otherwise where its file lives. */
export function originOf(path: string | null, location: string): FrameOrigin {
  return path === null ? "runtime" : pathOrigin(location);
}

/** The language of a source file, by its extension (null for other files). */
export function languageOfPath(path: string): ReportLanguage | null {
  const ext = /\.([A-Za-z+]+)$/.exec(path)?.[1] ?? "";
  switch (ext.toLowerCase()) {
    case "py":
    case "pyx":
      return "python";
    case "js":
    case "mjs":
    case "cjs":
    case "jsx":
    case "ts":
    case "tsx":
    case "mts":
    case "cts":
      return "javascript";
    case "go":
      return "go";
    case "rs":
      return "rust";
    case "java":
      return "java";
    case "kt":
    case "kts":
      return "kotlin";
    case "rb":
    case "rake":
      return "ruby";
    case "cs":
      return "csharp";
    case "php":
      return "php";
    case "h":
      return /\/c\+\+\//.test(path) ? "cpp" : "c";
    case "c":
    case "y":
    case "l":
    case "m":
      return "c";
    case "cc":
    case "cpp":
    case "cxx":
    case "c++":
    case "hpp":
    case "hh":
    case "hxx":
    case "ipp":
    case "inl":
    case "tpp":
    case "mm":
      return "cpp";
    default:
      return null;
  }
}
