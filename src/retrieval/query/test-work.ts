/**
 * Whether a short query reports work done on tests ("Fix X and add a regression test", "update tests",
 * "Add implementation/test for async") rather than asking for them ("where is X tested?", "X unit test",
 * "how do I add a test for the router?"). Commit messages and pull request titles say what was changed
 * beside the code; the code is what such a query is about, so its tests stay behind the source like in
 * any other query. A question (a `?`, or an opening question word) is never such a report.
 */
import { isQuestion } from "./questions.ts";

const TEST_WORK = /\b(?:add(?:s|ed|ing)?|updat(?:e|es|ed|ing)|fix(?:es|ed|ing)?|extend(?:s|ed|ing)?|chang(?:e|es|ed|ing))\b(?:\W+\w+){0,4}?\W+(?:tests?|specs?)\b/i;

export function reportsTestWork(text: string): boolean {
  return !isQuestion(text) && TEST_WORK.test(text);
}
