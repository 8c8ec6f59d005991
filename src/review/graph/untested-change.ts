/**
 * "Untested change": a public function or method whose code the change modifies, that has tests in
 * the repository, none of which the pull request touches. One note in the summary, never inline.
 *
 * A function's tests are test files (at the pull request's head) that name it as a word and are
 *   - its file's tests by the language's conventions (src/retrieval/test-sources.ts read backwards:
 *     `test_foo.py`/`foo_test.py` for `foo.py`, `foo_test.go`, `FooTest.java`, `foo.test.js`,
 *     `crate/tests/foo.rs`...), or Go test files of its package (same folder), or
 *   - test files the code graph shows using the name (indexed target branch), when they import the
 *     function's file or the name is defined nowhere else in the repository.
 * A test helper (a mock, a fake, a test utility: isTestSupportPath) has only its own tests by convention:
 * the test files that use it are its users. Type tests and benchmarks are no function's tests; a method's
 * tests name its class, a superclass or an obvious instance (namesClass).
 * Covered (no note): a touched test naming the function or named for its module, in Go any touched test of
 * its package, and for a function without a test file of its own, a rewritten test importing its file or
 * any touched data-driven test (isDataDrivenTest: cases the test runner feeds to the program).
 * Public: not `_private`/`#private`/dunder, not `private`, exported in Go (capitalised) and `pub` in
 * Rust (not `pub(crate)` and the like). A change to comments or whitespace only is not a change here.
 */
import { isTestPath, languageOf } from "../analysers/context.ts";
import type { DefinitionChange } from "../change-outline.ts";
import type { DiffFile } from "../diff.ts";
import { sourcesOfTest } from "../../retrieval/test-sources.ts";
import { regexEscaped } from "./path-text.ts";

export const RULE_UNTESTED_CHANGE = "graph/untested-change";
/** Changed public functions whose tests are looked up per review. */
export const MAX_FUNCTIONS = 30;
/** Test files named per function. */
export const MAX_TESTS = 3;
/** Untouched test files read per function to find MAX_TESTS that name it. */
const MAX_READ = 20;

export type UntestedChange = { path: string; name: string; parent: string | null; line: number; tests: string[] };

/**
 * The untested changes of a review: those listed in its note, and those left out as one mechanical edit
 * that other changed functions repeat (./repeated-edit.ts), counted with the names the edit removes and adds.
 */
export type UntestedReport = {
  listed: UntestedChange[];
  mechanical: { functions: number; removed: string[]; added: string[] } | null;
};

export function isPublicDefinition(change: Pick<DefinitionChange, "name" | "kind" | "signatureAfter" | "path">): boolean {
  if (change.kind !== "function" && change.kind !== "method") return false;
  const { name } = change;
  if (name.startsWith("_") || name.startsWith("#") || isTestHookName(name)) return false;
  const signature = change.signatureAfter ?? "";
  const language = languageOf(change.path);
  if (language === "go") return /^[A-Z]/.test(name);
  // `pub(crate)`, `pub(super)`, `pub(in path)`: visible in the crate only, out of its integration tests' reach.
  if (language === "rust") return /\bpub\b(?!\s*\()/.test(signature);
  return !/\bprivate\b/.test(signature);
}

/**
 * A function named as a hook for tests (`TEST_CompactRange`, `setClockForTesting`, `reset_for_testing`):
 * the conventions that mark code only tests call. The tests that call it use it, they do not test it.
 */
export const isTestHookName = (name: string): boolean => /^TEST_|ForTest(?:s|ing)?$|_for_test(?:s|ing)?$/.test(name);

/**
 * Code that exists for tests outside test folders: mocks, fakes and test utilities (`mocks/`,
 * `tracing-mock/src/`, `internal/testutil/`, `test-support/`, `fakes.go`).
 */
export function isTestSupportPath(path: string): boolean {
  const p = path.toLowerCase();
  return /(^|\/)([^/]*[-_])?(mocks?|fakes?)(\/|[-_.][^/]*$)/.test(p) || /(^|\/)test[-_]?(utils?|helpers?|support|kit)(\/|\.[^/]*$)/.test(p);
}

/**
 * Type tests: files a type checker reads to check a library's declarations (`index.d.test.ts`,
 * tsd's `*.test-d.ts`, `test-d/`, `type-tests/`, `dtslint/`). They call the functions only to see
 * their types; nothing they run checks what a function does, so they are no function's tests here.
 */
export function isTypeTest(path: string): boolean {
  return (
    /\.d\.test\.[cm]?tsx?$|\.test-d\.[cm]?tsx?$/.test(path) ||
    /(^|\/)(test-d|type-tests|types-tests|dtslint)\//.test(path) ||
    // A `typing/` folder of a test folder: files a type checker reads (`tests/typing/typing_route.py`), which pytest never runs.
    /(^|\/)(tests?|__tests__)\/(.+\/)?typing\//.test(path)
  );
}

/**
 * Benchmarks: files whose name or folder says they measure speed (`test/benchmark-pound.c`, `benches/`,
 * `bench_parse_test.go`). They run the code to time it and check nothing it returns: no function's tests.
 */
export function isBenchmarkPath(path: string): boolean {
  const parts = path.split("/");
  if (parts.slice(0, -1).some((d) => /^(benches|benchmarks?|bench)$/i.test(d))) return true;
  return wordsOf(parts[parts.length - 1]!.replace(/\.[A-Za-z0-9+]+$/, "")).some((w) => /^bench(mark)?(s|es)?$/.test(w));
}

/**
 * Whether a test file's own name marks it as a test (`test_foo.py`, `foo_test.go`, `foo.test.js`,
 * `test-tty.c`, `FooTest.java`), not only the folder it is in (`test/echo-server.c`, a helper the
 * tests link in).
 */
export function namedAsTest(path: string): boolean {
  const base = path.slice(path.lastIndexOf("/") + 1).replace(/\.[A-Za-z0-9+]+$/, "");
  return /^(tests?|specs?)([-_.A-Z0-9]|$)/.test(base) || /[-_.](tests?|specs?)$/.test(base) || /[a-z0-9](Tests?|Specs?|IT)$/.test(base);
}

/**
 * Test files whose existing lines the pull request rewrites (a hunk that removes lines and adds others),
 * not only adds to or deletes from: tests that ran before and were changed to expect something else. Type
 * tests, test helpers and benchmarks are not counted: they check nothing a function does.
 */
export function rewrittenTestsOf(files: readonly DiffFile[]): Set<string> {
  return new Set(
    files
      .filter((f) => f.status !== "added" && f.status !== "deleted" && isTestPath(f.path) && !isTypeTest(f.path) && !isTestSupportPath(f.path) && !isBenchmarkPath(f.path))
      .filter((f) => f.hunks.some((h) => h.lines.some((l) => l.kind === "del") && h.lines.some((l) => l.kind === "add")))
      .map((f) => f.path),
  );
}

/**
 * A data-driven test: a file of a test folder named as a test (`tests/jq.test`, `tests/utf8test`,
 * `test/cli-test.sh`) in no language the code graph reads or in shell: cases or commands that a test
 * runner feeds to the program, importing nothing, so which functions they reach is not in the graph.
 */
export function isDataDrivenTest(path: string): boolean {
  const language = languageOf(path);
  if (!isTestPath(path) || (language !== null && language !== "shell")) return false;
  return /test|spec/i.test(path.slice(path.lastIndexOf("/") + 1));
}

/** True when `sourcePath` is (by suffix) one of the sources a test path tests by convention. */
const testsSource = (testPath: string, sourcePath: string) =>
  sourcesOfTest(testPath).some((s) => s === sourcePath || sourcePath.endsWith(`/${s}`));

const dirOf = (path: string) => path.slice(0, path.lastIndexOf("/") + 1);

/** Test files at head that test `sourcePath` by the language's conventions (and Go: its package's tests). */
export function conventionTestsOf(sourcePath: string, headPaths: readonly string[]): string[] {
  const go = sourcePath.endsWith(".go");
  return headPaths.filter((p) => isTestPath(p) && (testsSource(p, sourcePath) || (go && p.endsWith("_test.go") && dirOf(p) === dirOf(sourcePath))));
}

/** Words of a path's part: split at punctuation and case changes, lowercased (`test_Router-map` -> test, router, map). */
const wordsOf = (part: string): string[] =>
  part.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 0);

/** What a test file's name leaves once its test words and extension are cut (`tests/brain/test_typing.py` -> typing). */
const testSubjectWords = (testPath: string): string[] => {
  const base = testPath.slice(testPath.lastIndexOf("/") + 1).replace(/(\.[A-Za-z0-9]+)+$/, "");
  return wordsOf(base).filter((w) => !/^(tests?|specs?|unit|it)$/.test(w));
};

/**
 * Whether a test file is named for the module a source file belongs to, more loosely than the language's
 * conventions: every word its name keeps besides the test words (at least one, three letters or more) is
 * a word of the source's path, its folders or its file's name (`tests/brain/test_typing.py` for
 * `astroid/brain/brain_typing.py`, `test/Router.js` for `lib/router/layer.js`). The naming heuristic of
 * test-to-code traceability (Van Rompaey and Demeyer, 2009), used only to see that the pull request
 * does work on the tests of a changed function's module.
 */
export function namedForModuleOf(testPath: string, sourcePath: string): boolean {
  const subject = testSubjectWords(testPath);
  if (subject.length === 0 || subject.some((w) => w.length < 3)) return false;
  const sourceWords = new Set(sourcePath.replace(/\.[A-Za-z0-9]+$/, "").split("/").flatMap(wordsOf));
  return subject.every((w) => sourceWords.has(w));
}

/** `name` as a literal part of a regular expression. */

/** Whether `content` names `name` as a whole word. */
export function mentions(content: string, name: string): boolean {
  return new RegExp(`(^|[^\\w$])${regexEscaped(name)}($|[^\\w$])`).test(content);
}

/**
 * Whether a test file exercises `name`: it names it, and when it replaces it (assigns over it, or gives
 * it to a patching call: `mock.patch("pkg.mod.name")`, `monkeypatch.setattr(obj, "name", ...)`,
 * `jest.spyOn(obj, 'name')`, `sinon.stub(obj, "name")`, `obj.name = fake`), it also calls it. A test that
 * only swaps a function for a fake tests its callers, not it.
 */
export function exercises(content: string, name: string): boolean {
  if (!mentions(content, name)) return false;
  const literal = regexEscaped(name);
  const assigned = new RegExp(`\\.${literal}\\s*=(?![=>])`);
  const patched = new RegExp(`(?:patch|setattr|spyOn|stub|mock|replace)[\\w.]*\\s*\\([^)]*["'\`][\\w.$]*\\b${literal}["'\`]`, "i");
  if (!assigned.test(content) && !patched.test(content)) return true;
  return new RegExp(`(^|[^\\w$])${literal}\\s*\\(`).test(content);
}

/** An identifier as a test may spell it: `AppContext`, `app_context` and `appcontext` alike. */
const spelling = (word: string) => word.replace(/_/g, "").toLowerCase();

const NOT_A_CLASS = new Set(["exports", "module", "prototype"]);

/**
 * The names a test of a method would use: its class (template arguments aside) and the direct superclasses
 * the source file declares for it (Python `class Option(Parameter):`, C++ `class WindowsEnv : public Env`,
 * `extends`/`implements`). Empty when the parent is no class (`module.exports`).
 */
export function classNamesOf(parent: string, source: string | null): string[] {
  const own = parent.replace(/<[\s\S]*$/, "").split(/\.|::/).pop()!.trim();
  if (!/^[A-Za-z_$][\w$]*$/.test(own) || NOT_A_CLASS.has(own)) return [];
  const names = [own];
  const e = regexEscaped(own);
  const python = source === null ? null : new RegExp(`^[ \\t]*class\\s+${e}\\s*\\(([^)]*)\\)\\s*:`, "m").exec(source);
  const braced = source === null || python ? null : new RegExp(`\\b(?:class|struct|interface)\\s+${e}\\b([^{;]*)\\{`).exec(source);
  let header = python ? python[1]!.split(",").filter((b) => !b.includes("=")).join(",") : (braced?.[1] ?? "");
  // Template and generic arguments aside (`Base<T>`, `Generic[V]`), innermost first.
  for (let before = ""; before !== header; ) [before, header] = [header, header.replace(/<[^<>]*>|\[[^[\]]*\]/g, " ")];
  const KEYWORDS = /^(public|private|protected|virtual|final|extends|implements|sealed|abstract|open|internal)$/;
  for (const w of header.match(/[A-Za-z_$][\w$]*/g) ?? []) if (!KEYWORDS.test(w) && !names.includes(w)) names.push(w);
  return names;
}

/**
 * Whether a test names one of `classNames` (a class and its superclasses), or an obvious instance of one:
 * an identifier spelled the same but for case and underscores (`app_context` for AppContext, `dayjs()`
 * for Dayjs, `client` for a FlaskClient whose superclass is Client). A test that calls `read()` and
 * names none of them calls another class's method of that name.
 */
export function namesClass(content: string, classNames: readonly string[]): boolean {
  if (classNames.length === 0) return true;
  const wanted = new Set(classNames.map(spelling));
  return (content.match(/[A-Za-z_$][\w$]*/g) ?? []).some((w) => wanted.has(spelling(w)));
}

export type TestLookup = {
  /** The repository's paths at the pull request's head. */
  headPaths: readonly string[];
  /** A file at head, or null. */
  readHead(path: string): Promise<string | null>;
  /** Optional: these files at head will be asked for (read them together). */
  prefetchHead?(paths: readonly string[]): Promise<void>;
  /** Test files that use `name` per the code graph and import `sourcePath` or use a name defined only there; [] without an index. */
  graphTests(name: string, sourcePath: string): Promise<string[]>;
  /** Optional: whether `testPath` imports `sourcePath`, directly or through the files it imports (a few steps); false without an index. */
  reaches?(testPath: string, sourcePath: string): Promise<boolean>;
};

export async function untestedChanges(input: {
  /** Changed public definitions whose code (not only comments or whitespace) changed. */
  changed: readonly DefinitionChange[];
  /** Paths the pull request touches (old and new). */
  touched: ReadonlySet<string>;
  /** Test files whose existing lines the pull request rewrites (rewrittenTestsOf). */
  rewrittenTests?: ReadonlySet<string>;
  lookup: TestLookup;
}): Promise<UntestedChange[]> {
  const out: UntestedChange[] = [];
  const contents = new Map<string, Promise<string | null>>();
  const read = (p: string) => {
    if (!contents.has(p)) contents.set(p, input.lookup.readHead(p));
    return contents.get(p)!;
  };
  const reached = new Map<string, Promise<boolean>>();
  const reachedByRewrittenTest = (sourcePath: string): Promise<boolean> => {
    const reaches = input.lookup.reaches;
    if (!reaches || !input.rewrittenTests?.size) return Promise.resolve(false);
    if (!reached.has(sourcePath)) {
      reached.set(sourcePath, (async () => {
        for (const t of input.rewrittenTests!) if (await reaches(t, sourcePath)) return true;
        return false;
      })());
    }
    return reached.get(sourcePath)!;
  };
  const dataDriven = [...input.touched].filter(isDataDrivenTest);
  for (const change of input.changed.slice(0, MAX_FUNCTIONS)) {
    if (isTestPath(change.path)) continue;
    const convention = conventionTestsOf(change.path, input.lookup.headPaths);
    // Tests that use a test helper (a mock, a fake, a test utility) are its users, not its tests.
    const users = isTestSupportPath(change.path) ? [] : await input.lookup.graphTests(change.name, change.path);
    const candidates = [...new Set([...convention, ...users])].filter((p) => isTestPath(p) && !isTypeTest(p) && !isBenchmarkPath(p) && p !== change.path);
    // Tests the pull request touches first: one of them naming the function is enough (any test file it
    // touches, found or not: the graph's references of a common name may be cut short).
    // (A touched type test that names the function counts: a typing change's test is a type test.)
    const touchedTests = [...new Set([...candidates.filter((c) => input.touched.has(c)), ...[...input.touched].filter(isTestPath)])].filter((p) => !isBenchmarkPath(p));
    // By convention, then named after the function, then named as a test by its own file name, then the rest.
    const rank = (p: string) => (convention.includes(p) ? 0 : p.toLowerCase().includes(change.name.toLowerCase()) ? 1 : namedAsTest(p) ? 2 : 3);
    const ordered = candidates.map((p, i) => ({ p, i })).sort((x, y) => rank(x.p) - rank(y.p) || x.i - y.i).map((x) => x.p);
    await input.lookup.prefetchHead?.([...touchedTests, ...ordered.slice(0, MAX_READ)]);
    // A test file of the function's module that the pull request touches counts without naming it: the
    // change's test may drive the function through its callers. In Go, any test file of its package does
    // (they share the package's unexported helpers: cobra's completions_test.go runs Execute through them).
    const go = change.path.endsWith(".go");
    let covered = touchedTests.some((p) => !isTypeTest(p) && (namedForModuleOf(p, change.path) || (go && p.endsWith("_test.go") && dirOf(p) === dirOf(change.path))));
    for (const p of covered ? [] : touchedTests) {
      const content = await read(p);
      if (content !== null && mentions(content, change.name)) covered = true;
      if (covered) break;
    }
    if (covered) continue;
    // A method's test names its class, a superclass or an obvious instance of one.
    const classNames = change.kind === "method" && change.parent ? classNamesOf(change.parent, await read(change.path)) : [];
    // Then the best-named: by convention, then a file named after the function, then the rest.
    const tests: string[] = [];
    for (const p of ordered.slice(0, MAX_READ)) {
      const content = await read(p);
      if (content !== null && exercises(content, change.name) && namesClass(content, classNames)) tests.push(p);
      if (tests.length >= MAX_TESTS) break;
    }
    if (tests.length === 0) continue;
    // A function without a test file of its own (its tests are other modules' tests that use it) is
    // reached through its callers: when the pull request rewrites the assertions of a test that imports
    // its file (directly or through the modules it imports), it has updated a test that sees the change,
    // though which of the test's calls reaches the function cannot be told from the names.
    if (!tests.some((p) => testsSource(p, change.path)) && (await reachedByRewrittenTest(change.path))) continue;
    // Likewise when the pull request edits a data-driven test (isDataDrivenTest): it runs the program on
    // its cases, so whether a case reaches the function cannot be told from imports or names either.
    if (!tests.some((p) => testsSource(p, change.path)) && dataDriven.length > 0) continue;
    out.push({ path: change.path, name: change.name, parent: change.parent, line: change.line, tests });
  }
  return out;
}

/**
 * The Conventional Commits type of a title that declares a change keeping behaviour (`refactor:`,
 * `perf(x):`, `style:`, `chore:`, `build:`, `ci:`, `docs:`, `test:`; or a title starting "Refactor"),
 * or null; a breaking one (`refactor!:`) declares nothing. For such a pull request, tests left as they
 * were are what is expected (they pass unchanged), so no function is listed; the summary says so.
 */
export function declaredSameBehaviour(title: string | undefined): string | null {
  const t = (title ?? "").trim();
  const typed = /^(refactor|perf|style|chore|build|ci|docs|test)(\([^)]*\))?:/i.exec(t);
  if (typed) return typed[1]!.toLowerCase();
  return /^refactor(s|ed|ing)?\b/i.test(t) && !/^[^:]*!:/.test(t) ? "refactor" : null;
}

/**
 * A changed function as the note names it: `Parent.name()`, on one line (a C++ template parent such as
 * `formatter<\n    T, char, ...>` spans several in the source).
 */
export function labelOf(u: Pick<UntestedChange, "parent" | "name">): string {
  return `${u.parent ? `${u.parent}.` : ""}${u.name}()`
    .replace(/\s+/g, " ")
    .replace(/([<([]) /g, "$1")
    .replace(/ ([>)\]])/g, "$1");
}

/**
 * The note's entries: a name repeated in one file (overloads, a property's getter and setter) once, with
 * each of its lines and the test files of all of them.
 */
export function noteEntries(list: readonly UntestedChange[]): { label: string; path: string; lines: number[]; tests: string[] }[] {
  const entries = new Map<string, { label: string; path: string; lines: number[]; tests: string[] }>();
  for (const u of list) {
    const label = labelOf(u);
    const key = `${u.path}\0${label}`;
    const entry = entries.get(key) ?? { label, path: u.path, lines: [], tests: [] };
    entries.set(key, entry);
    if (!entry.lines.includes(u.line)) entry.lines.push(u.line);
    for (const t of u.tests) if (!entry.tests.includes(t)) entry.tests.push(t);
  }
  return [...entries.values()].map((e) => ({ ...e, lines: [...e.lines].sort((a, b) => a - b), tests: e.tests.slice(0, MAX_TESTS) }));
}

/** The summary's note: the changed functions and their tests that the pull request leaves as they were. */
export function untestedSection(list: readonly UntestedChange[]): string[] {
  if (list.length === 0) return [];
  const code = (t: string) => `\`${t.replace(/`/g, "'")}\``;
  const entries = noteEntries(list);
  const out = ["", "### Tests not updated", "", `The pull request changes ${entries.length === 1 ? "this function, whose tests it does" : `these ${entries.length} functions, whose tests it does`} not touch:`];
  for (const e of entries.slice(0, 15)) {
    out.push(`- ${code(e.label)} (${code(`${e.path}:${e.lines.join(", ")}`)}): tested in ${e.tests.map(code).join(", ")}`);
  }
  if (entries.length > 15) out.push(`- …and ${entries.length - 15} more`);
  return out;
}
