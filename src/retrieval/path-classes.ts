/**
 * A file's class by its path: source, a declaration file (typings, stubs), a test, documentation
 * (examples and benchmarks with it) or other (text, data, config). The ranking demotes all but source
 * unless the query asks for them (./query-wants.ts); every rule is an ecosystem's convention,
 * none a repository's.
 */
import { detectLanguage } from "../indexing/chunking/languages.ts";

/**
 * Tests by folder (`tests/`, `__tests__/`, and a folder whose name has `test` or `tests` as a word:
 * `__performance_tests__/`, `dts-test/`, `integration_tests/`, `test-helpers/`) or by file name (`test_x.py`,
 * `x_test.go`, `x.test.ts`, tsd's type tests `x.test-d.ts`, `conftest.py`).
 */
const TEST_PATH = /(^|\/)(tests?|__tests__|spec|specs|testing|test_?data|fixtures?)(\/|$)|(^|\/)([^/]*[_.-])?tests?[_.-][^/]*\/|(^|\/)[^/]*[_.-]tests?\/|(^|\/)(tests?\.[^/.]+|test_[^/]*|[^/]*_tests?\.[^/.]+|[^/]*\.(test|spec)(-d)?\.[^/.]+|conftest\.py)$/i;
/** Documentation (in the markup formats ecosystems write it in: `.md`, `.markdown`, `.rst`, Ruby's `.rdoc`, `.adoc`), examples and benchmarks (`bench/`, `__benchmarks__/`, vitest's `x.bench.ts`). */
export const DOC_PATH = /(^|\/)(docs?|documentation|examples?|samples?|demos?|bench(?:es|marks?)?|__benchmarks?__|changelog[^/]*|changes[^/]*|whatsnew|release[-_]?notes?)(\/|$)|\.(md|mdx|markdown|mkd|rst|rdoc|txt|adoc|asciidoc|textile)$|(^|\/)[^/]*\.bench\.[^/.]+$/i;
const CODE_EXT = /\.(py|pyi|pyx|js|mjs|cjs|jsx|ts|tsx|mts|cts|go|rs|java|kt|kts|scala|rb|php|c|h|cc|cpp|cxx|hpp|hh|cs|fs|swift|dart|lua|pl|pm|r|jl|ex|exs|erl|clj|cljs|hs|ml|mli|nim|zig|sol|sh|bash|vue|svelte|sql)$/i;

/**
 * A project's release notes, by the names they take (`CHANGELOG.md`, `History.md`, `NEWS.md`,
 * `RELEASE-NOTES.rst`), one a release line (`CHANGELOG-3.2.md`, `RELEASE-NOTES-3.2.txt`), or by the
 * folders that keep them (`changelogs/`, towncrier's `changes/` and `newsfragments/`, `changelog.d/`,
 * changesets' `.changeset/`); read only for files classed as documentation.
 */
export const RELEASE_NOTES = /(^|\/)(change[-_]?logs?|changes|history|news|release[-_]?notes?|whatsnew)([-_.]v?\d[^/]*)?(\.[^/]*)?$|(^|\/)(change[-_]?logs?|changelog\.d|changes|release[-_]?notes?|\.changesets?|newsfragments)\/(?:[^/]+\/)*[^/]+$/i;

/**
 * Tests named the way ecosystems with CamelCase names name them (case-sensitive, so `latest/` and
 * `Manifest.java` are none): a test project or source set (.NET's `Newtonsoft.Json.Tests/` and
 * `UnitTests/`, Gradle's `jvmTest/`, `commonTest/`, `androidTest/`, SwiftPM's `AlamofireTests/`), a test
 * class's file (`BufferTest.kt`, `ParserTests.cs`, `SessionTests.swift`, `ClientTest.php`, Maven's
 * integration `FooIT.java`; `FooSpec` only in Scala and Groovy, where ScalaTest and Spock name specs so:
 * Java's and Kotlin's `KeySpec`, `ResponseSpec` are source), and RSpec's `foo_spec.rb` outside `spec/`.
 */
const TEST_NAMED = /(^|\/)[^/]*[a-z0-9.](Tests?|Specs?)\/|(^|\/)[^/]*[a-z0-9](Tests?|TestCase|IT)\.(java|kt|kts|cs|fs|vb|swift|php|scala|groovy|m|mm)$|(^|\/)[^/]*[a-z0-9]Spec\.(scala|groovy)$|_spec\.rb$/;

export type FileClass = "source" | "declaration" | "test" | "doc" | "other";

/** Declaration-only files (TypeScript `.d.ts`, Python stubs): the types of code that lives elsewhere. */
export const DECLARATION_PATH = /\.d\.[mc]?ts$|\.pyi$/i;

export function classifyPath(path: string): FileClass {
  let cls = classCache.get(path);
  if (cls === undefined) {
    cls = TEST_PATH.test(path) || TEST_NAMED.test(path) ? "test" : DOC_PATH.test(path) ? "doc" : DECLARATION_PATH.test(path) ? "declaration" : CODE_EXT.test(path) || detectLanguage(path)?.chunking === "script" ? "source" : "other";
    if (classCache.size >= CLASS_CACHE_LIMIT) classCache.clear();
    classCache.set(path, cls);
  }
  return cls;
}
/** Classes of recently ranked paths (the same files come back query after query). */
const classCache = new Map<string, FileClass>();
const CLASS_CACHE_LIMIT = 100_000;
