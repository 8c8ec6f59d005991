/**
 * Which files of a tree the BM25 baseline reads for a case: the NON-TEST source files of the case's
 * language. Extensions by language; test files by the generic conventions of each ecosystem (never a
 * rule naming a particular repository or file).
 */

const EXTENSIONS: Record<string, readonly string[]> = {
  python: [".py"],
  javascript: [".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx"],
  rust: [".rs"],
  c: [".c", ".h"],
  "c++": [".cc", ".cpp", ".cxx", ".c++", ".h", ".hpp", ".hh", ".hxx", ".ipp"],
  go: [".go"],
  java: [".java"],
  // Languages no dev set holds, for cases made from other repositories' histories (scripts/history-cases.ts).
  // TypeScript's files are JavaScript's too: a case is TypeScript only when made with --languages typescript.
  typescript: [".ts", ".tsx", ".mts", ".cts"],
  ruby: [".rb"],
  php: [".php"],
  "c#": [".cs"],
  kotlin: [".kt", ".kts"],
  swift: [".swift"],
};

/** The languages the evaluation knows, lower case. */
export const LANGUAGES: readonly string[] = Object.keys(EXTENSIONS);

/** The languages of the dev sets (../shared/eval), lower case. */
export const DEV_SET_LANGUAGES: readonly string[] = ["python", "javascript", "rust", "c", "c++", "go", "java"];

/** Each language as a case names it (`language` of ../shared/eval's cases). */
export const DISPLAY_NAMES: Readonly<Record<string, string>> = {
  python: "Python",
  javascript: "JavaScript",
  rust: "Rust",
  c: "C",
  "c++": "C++",
  go: "Go",
  java: "Java",
  typescript: "TypeScript",
  ruby: "Ruby",
  php: "PHP",
  "c#": "C#",
  kotlin: "Kotlin",
  swift: "Swift",
};

const key = (language: string) => language.trim().toLowerCase();

/** Whether `language` is one the baseline has extensions for (case-insensitive). */
export function knownLanguage(language: string): boolean {
  return key(language) in EXTENSIONS;
}

/** True when `path` ends in one of `language`'s source extensions (case-sensitive on the name's end, as the ecosystems are). */
export function isSourceFile(path: string, language: string): boolean {
  const exts = EXTENSIONS[key(language)];
  if (!exts) throw new Error(`unknown language ${language} (known: ${LANGUAGES.join(", ")})`);
  const name = path.slice(path.lastIndexOf("/") + 1);
  return exts.some((e) => name.length > e.length && name.endsWith(e));
}

/** Directories that hold tests or test fixtures, in any ecosystem (a path segment, at any depth). */
const TEST_DIRS = new Set(["test", "tests", "testing", "__tests__", "spec"]);

/**
 * Test files by the conventions of each ecosystem:
 * - every language: a file under a test/tests/testing/__tests__/spec directory;
 * - Python: test_*.py, *_test.py, conftest.py;
 * - JavaScript/TypeScript: *.test.js, *.spec.ts and so on (any of the language's extensions);
 * - Go: *_test.go, and anything under a testdata directory (Go's fixture directory);
 * - Java: *Test.java, *Tests.java, *TestCase.java, and src/test/ (a `test` directory);
 * - Rust: tests/ directories (above) and benches/ directories;
 * - C and C++: *_test.c/.cc/.cpp…, *_unittest.cc…, test_*.c… (the xUnit-style conventions);
 * - Ruby: *_spec.rb, *_test.rb, test_*.rb; PHP: *Test.php; C#, Kotlin and Swift: *Test(s).cs/.kt/.swift;
 *   and in those five, a test directory in any case (`Tests/`) or named like a test project or source
 *   set (`Newtonsoft.Json.Tests/`, `UnitTests/`, Kotlin's `commonTest/`, `jvmTest/`).
 */
export function isTestFile(path: string, language: string): boolean {
  const parts = path.split("/");
  const name = parts[parts.length - 1]!;
  const dirs = parts.slice(0, -1);
  if (dirs.some((d) => TEST_DIRS.has(d))) return true;
  // The languages no dev set holds: a test folder in any case (`Tests/`), or a test project or source set.
  const testProject = () => dirs.some((d) => TEST_DIRS.has(d.toLowerCase()) || /(^|[a-z.])Tests?$/.test(d));
  switch (key(language)) {
    case "python":
      return /^test_.*\.py$/.test(name) || /_test\.py$/.test(name) || name === "conftest.py";
    case "javascript":
    case "typescript":
      return /\.(test|spec)\.[cm]?[jt]sx?$/.test(name);
    case "go":
      return /_test\.go$/.test(name) || dirs.includes("testdata");
    case "java":
      return /(Test|Tests|TestCase)\.java$/.test(name);
    case "rust":
      return dirs.includes("benches");
    case "c":
    case "c++":
      return /(_test|_unittest|_tests)\.(c|cc|cpp|cxx|c\+\+)$/.test(name) || /^test_[^/]*\.(c|cc|cpp|cxx|c\+\+)$/.test(name);
    case "ruby":
      return testProject() || /(_spec|_test)\.rb$/.test(name) || /^test_.*\.rb$/.test(name);
    case "php":
      return testProject() || /Test\.php$/.test(name);
    case "c#":
      return testProject() || /Tests?\.cs$/.test(name);
    case "kotlin":
      return testProject() || /Tests?\.kts?$/.test(name);
    case "swift":
      return testProject() || /Tests?\.swift$/.test(name);
    default:
      throw new Error(`unknown language ${language} (known: ${LANGUAGES.join(", ")})`);
  }
}

/** A file the baseline reads for a case of `language`. */
export const isBaselineFile = (path: string, language: string): boolean => isSourceFile(path, language) && !isTestFile(path, language);
