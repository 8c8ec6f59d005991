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
 * the test files that use it are its users.
 * Public: not `_private`/`#private`/dunder, not `private`, exported in Go (capitalised) and `pub` in
 * Rust (not `pub(crate)` and the like). A change to comments or whitespace only is not a change here.
 */
import { isTestPath, languageOf } from "../analysers/context.ts";
import type { DefinitionChange } from "../change-outline.ts";
import { sourcesOfTest } from "../../retrieval/test-sources.ts";

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
  if (name.startsWith("_") || name.startsWith("#")) return false;
  const signature = change.signatureAfter ?? "";
  const language = languageOf(change.path);
  if (language === "go") return /^[A-Z]/.test(name);
  // `pub(crate)`, `pub(super)`, `pub(in path)`: visible in the crate only, out of its integration tests' reach.
  if (language === "rust") return /\bpub\b(?!\s*\()/.test(signature);
  return !/\bprivate\b/.test(signature);
}

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
  return /\.d\.test\.[cm]?tsx?$|\.test-d\.[cm]?tsx?$/.test(path) || /(^|\/)(test-d|type-tests|types-tests|dtslint)\//.test(path);
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
const escaped = (name: string): string => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Whether `content` names `name` as a whole word. */
export function mentions(content: string, name: string): boolean {
  return new RegExp(`(^|[^\\w$])${escaped(name)}($|[^\\w$])`).test(content);
}

/**
 * Whether a test file exercises `name`: it names it, and when it replaces it (assigns over it, or gives
 * it to a patching call: `mock.patch("pkg.mod.name")`, `monkeypatch.setattr(obj, "name", ...)`,
 * `jest.spyOn(obj, 'name')`, `sinon.stub(obj, "name")`, `obj.name = fake`), it also calls it. A test that
 * only swaps a function for a fake tests its callers, not it.
 */
export function exercises(content: string, name: string): boolean {
  if (!mentions(content, name)) return false;
  const literal = escaped(name);
  const assigned = new RegExp(`\\.${literal}\\s*=(?![=>])`);
  const patched = new RegExp(`(?:patch|setattr|spyOn|stub|mock|replace)[\\w.]*\\s*\\([^)]*["'\`][\\w.$]*\\b${literal}["'\`]`, "i");
  if (!assigned.test(content) && !patched.test(content)) return true;
  return new RegExp(`(^|[^\\w$])${literal}\\s*\\(`).test(content);
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
};

export async function untestedChanges(input: {
  /** Changed public definitions whose code (not only comments or whitespace) changed. */
  changed: readonly DefinitionChange[];
  /** Paths the pull request touches (old and new). */
  touched: ReadonlySet<string>;
  lookup: TestLookup;
}): Promise<UntestedChange[]> {
  const out: UntestedChange[] = [];
  const contents = new Map<string, Promise<string | null>>();
  const read = (p: string) => {
    if (!contents.has(p)) contents.set(p, input.lookup.readHead(p));
    return contents.get(p)!;
  };
  for (const change of input.changed.slice(0, MAX_FUNCTIONS)) {
    if (isTestPath(change.path)) continue;
    const convention = conventionTestsOf(change.path, input.lookup.headPaths);
    // Tests that use a test helper (a mock, a fake, a test utility) are its users, not its tests.
    const users = isTestSupportPath(change.path) ? [] : await input.lookup.graphTests(change.name, change.path);
    const candidates = [...new Set([...convention, ...users])].filter((p) => isTestPath(p) && !isTypeTest(p) && p !== change.path);
    // Tests the pull request touches first: one of them naming the function is enough (any test file it
    // touches, found or not: the graph's references of a common name may be cut short).
    const touchedTests = [...new Set([...candidates.filter((c) => input.touched.has(c)), ...[...input.touched].filter(isTestPath)])];
    const rank = (p: string) => (convention.includes(p) ? 0 : p.toLowerCase().includes(change.name.toLowerCase()) ? 1 : 2);
    const ordered = candidates.map((p, i) => ({ p, i })).sort((x, y) => rank(x.p) - rank(y.p) || x.i - y.i).map((x) => x.p);
    await input.lookup.prefetchHead?.([...touchedTests, ...ordered.slice(0, MAX_READ)]);
    // A test file of the function's module that the pull request touches counts without naming it: the
    // change's test may drive the function through its callers.
    let covered = touchedTests.some((p) => !isTypeTest(p) && namedForModuleOf(p, change.path));
    for (const p of covered ? [] : touchedTests) {
      const content = await read(p);
      if (content !== null && mentions(content, change.name)) covered = true;
      if (covered) break;
    }
    if (covered) continue;
    // Then the best-named: by convention, then a file named after the function, then the rest.
    const tests: string[] = [];
    for (const p of ordered.slice(0, MAX_READ)) {
      const content = await read(p);
      if (content !== null && exercises(content, change.name)) tests.push(p);
      if (tests.length >= MAX_TESTS) break;
    }
    if (tests.length === 0) continue;
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

/** The summary's note: the changed functions and their tests that the pull request leaves as they were. */
export function untestedSection(list: readonly UntestedChange[]): string[] {
  if (list.length === 0) return [];
  const code = (t: string) => `\`${t.replace(/`/g, "'")}\``;
  const out = ["", "### Tests not updated", "", `The pull request changes ${list.length === 1 ? "this function, whose tests it does" : `these ${list.length} functions, whose tests it does`} not touch:`];
  for (const u of list.slice(0, 15)) {
    out.push(`- ${code(`${u.parent ? `${u.parent}.` : ""}${u.name}()`)} (${code(`${u.path}:${u.line}`)}): tested in ${u.tests.map(code).join(", ")}`);
  }
  if (list.length > 15) out.push(`- …and ${list.length - 15} more`);
  return out;
}
