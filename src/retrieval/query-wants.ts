/**
 * What a query asks for beyond source code: tests, docs, typings or release notes. The ranking demotes
 * the files of each class it does not ask for (./ranking.ts, ./whole-file.ts), and a TypeScript type
 * when the query does not speak of types (`types`: ./no-behaviour.ts).
 */
import type { QueryAnalysis } from "./query-analysis.ts";
import { DECLARATION_PATH, DOC_PATH, RELEASE_NOTES, type FileClass } from "./path-classes.ts";

/**
 * Does the query ask about tests, docs, typings, release notes or types (then they are not demoted)? A path it mentions asks for its class
 * only when it names a file of the searched repositories (`namesFile`): a report's own `out/result.txt`
 * asks for no documentation.
 */
export function queryWants(analysis: QueryAnalysis, namesFile: (path: string) => boolean = () => true): { tests: boolean; docs: boolean; declarations: boolean; releaseNotes: boolean; types: boolean } {
  const asked = (t: { kind: string; text: string }) => t.kind !== "path" || namesFile(t.text);
  // A report's words about tests ("added a unit test", "tested on Linux") tell how its writer worked, not
  // where the fault is; its paths and names still ask for a test. A short question's words ask, unless
  // they report changes made to tests beside the code ("fix X and add a test": ./query/test-work.ts).
  const testTexts = analysis.terms
    .filter((t) => (t.weight >= 0.9 || t.kind === "path") && asked(t) && !((analysis.isLongReport || analysis.testWork === true) && t.kind === "word"))
    .map((t) => t.text.toLowerCase());
  const tests = testTexts.some((t) => /(^|[/_.])(tests?|spec|pytest|unittest|conftest|fixture)([/_.]|$)|^test_|_test$/.test(t))
    || (!analysis.isLongReport && analysis.testWork !== true && analysis.terms.some((t) => t.kind === "word" && /^(test|tests|testing|spec|specs|pytest|unittest|tested)$/.test(t.text) && t.weight >= 0.9));
  const docs = analysis.terms.some((t) => (t.kind === "word" && /^(docs?|documentation|readme|example|examples|tutorial|changelog)$/.test(t.text) && t.weight >= 0.9)
    || (t.kind === "path" && DOC_PATH.test(t.text) && asked(t)));
  // Typings are asked for by name (`.d.ts`, a stub path) or by the words for them.
  const declarations = analysis.terms.some((t) => (t.kind === "path" && DECLARATION_PATH.test(t.text) && asked(t)) || (t.kind === "word" && /^(typings?|types|typescript|stubs?|mypy|declarations?)$/.test(t.text) && t.weight >= 0.9));
  const releaseNotes = analysis.terms.some((t) => (t.kind === "word" && /^(changelogs?|releases?|whatsnew)$/.test(t.text) && t.weight >= 0.9) || (t.kind === "path" && RELEASE_NOTES.test(t.text) && asked(t)));
  // The type level (TypeScript's interfaces and aliases), asked for by any of its words, however light.
  const types = declarations || analysis.terms.some((t) => (t.kind === "word" && TYPE_WORDS.test(t.text)) || /^TS\d{4}$/.test(t.text));
  return { tests, docs, declarations, releaseNotes, types };
}

/** The words for what a type system does: a query using one may be about a type, not what code does. */
const TYPE_WORDS = /^(types?|typed|typings?|typescript|generics?|inference|inferred|infers?)$/i;

/** Whether files of this class weigh less for a query that wants this (tests, docs, typings it does not ask for). */
export const demotedClass = (cls: FileClass, wants: ReturnType<typeof queryWants>): boolean =>
  (cls === "test" && !wants.tests) || (cls === "doc" && !wants.docs) || (cls === "declaration" && !wants.declarations);
