/**
 * Whether a short query reports work done on tests ("Fix X and add a regression test", "update tests",
 * "Add implementation/test for async") rather than asking for them ("where is X tested?", "X unit test").
 * Commit messages and pull request descriptions say what was changed beside the code; the code is what
 * such a query is about, so its tests stay behind the source like in any other query.
 */
const TEST_WORK = /\b(?:add(?:s|ed|ing)?|updat(?:e|es|ed|ing)|fix(?:es|ed|ing)?|extend(?:s|ed|ing)?|chang(?:e|es|ed|ing))\b(?:\W+\w+){0,4}?\W+(?:tests?|specs?)\b/i;

export function reportsTestWork(text: string): boolean {
  return TEST_WORK.test(text);
}
