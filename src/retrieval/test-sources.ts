/**
 * The source files a test file tests, by each language's conventions, so a report that names a test
 * (a failing test's path, a test file in a trace) also points at the code under test:
 * `foo_test.go` -> `foo.go`; `test_foo.py`, `foo_test.py` -> `foo.py`; `__tests__/foo.test.js`,
 * `foo.spec.ts` -> `foo.js`, `foo.ts`; `src/test/java/a/FooTest.java` -> `src/main/java/a/Foo.java`;
 * `crate/tests/foo.rs` -> `crate/src/foo.rs`, `foo/tests.rs` -> `foo.rs`, `foo/mod.rs`;
 * `foo_test.cc`, `foo-test.cc`, `test_foo.c` -> `foo.cc`/`foo.c` and its headers.
 * Paths are matched by suffix (ranking.ts), so a test's base name alone is a useful mention.
 */
import type { QueryAnalysis } from "./query/types.ts";

const C_FAMILY = /^(c|cc|cpp|cxx|c\+\+)$/;

export function sourcesOfTest(path: string): string[] {
  const slash = path.lastIndexOf("/");
  const dir = path.slice(0, slash + 1);
  const base = path.slice(slash + 1);
  let m: RegExpExecArray | null;
  if ((m = /^(.+)_test\.go$/.exec(base))) return [`${dir}${m[1]}.go`];
  if ((m = /^test_(.+)\.py$/.exec(base)) || (m = /^(.+)_test\.py$/.exec(base))) return [`${m[1]}.py`];
  if ((m = /^(.+)\.(?:test|spec)\.([cm]?[jt]sx?)$/.exec(base))) {
    const home = dir.replace(/(?:^|\/)__tests__\/$/, (s) => (s.startsWith("/") ? "/" : ""));
    return [...new Set([`${home}${m[1]}.${m[2]}`, `${home}${m[1]}.${m[2]!.replace(/^([cm]?)t/, "$1j")}`, `${home}${m[1]}.${m[2]!.replace(/^([cm]?)j/, "$1t")}`])];
  }
  if ((m = /^(.+?)(?:Tests?|IT)\.(java|kt)$/.exec(base)) || (m = /^Test(.+)\.(java|kt)$/.exec(base))) {
    const main = dir.replace(/(^|\/)src\/test\//, "$1src/main/");
    return [`${main}${m[1]}.${m[2]}`];
  }
  if (base.endsWith(".rs")) {
    if (base === "tests.rs" && dir) return [`${dir.slice(0, -1)}.rs`, `${dir}mod.rs`];
    if ((m = /^(.*?)(?:^|\/)tests\/(.+)$/.exec(path))) return [`${m[1] ? `${m[1]}/` : ""}src/${m[2]}`];
    return [];
  }
  if ((m = /^(.+?)[-_](?:unit)?tests?\.([\w+]+)$/.exec(base)) || (m = /^tests?[-_](.+)\.([\w+]+)$/.exec(base))) {
    if (!C_FAMILY.test(m[2]!)) return [];
    return [`${m[1]}.${m[2]}`, `${m[1]}.h`, `${m[1]}.hpp`];
  }
  return [];
}

/** The analysis with the sources of the test files it mentions added as path mentions (weighted like the test). */
export function withSourcesOfTests(analysis: QueryAnalysis): QueryAnalysis {
  const known = new Set(analysis.terms.filter((t) => t.kind === "path").map((t) => t.text));
  const extra: QueryAnalysis["terms"] = [];
  for (const t of analysis.terms) {
    if (t.kind !== "path") continue;
    for (const source of sourcesOfTest(t.text)) {
      if (known.has(source)) continue;
      known.add(source);
      extra.push({ text: source, weight: t.weight * 0.9, kind: "path" });
    }
  }
  if (extra.length === 0) return analysis;
  const added = extra.slice(0, 12);
  return { ...analysis, terms: [...analysis.terms, ...added], paths: [...analysis.paths, ...added.map((e) => e.text)] };
}
