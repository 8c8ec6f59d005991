/**
 * A question that asks where a named function or value is used, not where it is defined: "Where is
 * `parseDate` called?", "Who calls parse_config?", "Which functions call parse_config?", "callers of jv_cmp",
 * "usages of FooBar". Its answer is the code that calls or uses the name (the ranking puts the chunks that
 * call it before the one that defines it: ../ranking.ts). "What does parseDate call?" asks the opposite
 * (what the name calls) and is not a usage question. A question about a thing with no code name ("where
 * is the secret key used") has nothing to look up this way.
 */

/**
 * The shapes of a question about uses, within one sentence: "where is X called / used / invoked /
 * referenced", "who / what / which ... calls / uses X", "callers / call sites / usages / uses / references
 * of X", "find (all) the callers ...". A sentence that only mentions a call ("you simply call `x()`") asks
 * nothing of the kind.
 */
const USAGE_QUESTIONS: RegExp[] = [
  /\bwhere\b[^.?!]*\b(?:is|are|was|were|does|do|gets?)\b[^.?!]*\b(?:called|used|invoked|referenced)\b/i,
  /\b(?:who|what|which(?:\s+\w+){0,2})\s+(?:calls?|uses?|invokes?|references?)\b/i,
  /\b(?:callers|call[- ]sites?|usages?|uses|references)\s+(?:of|to)\b/i,
  /\b(?:find|show|list)\s+(?:me\s+)?(?:all\s+)?(?:the\s+)?(?:callers|call[- ]sites|usages|uses|references)\b/i,
];
/** "What does X call / use": the name's own callees. */
const CALLEES = /\b(?:does|do|did)\s+\S+\s+(?:call|use|invoke)\b/i;
/** "where is X used to ..." / "used for": the purpose of a thing, as in "where is the key used to sign". */
const PURPOSE = /\bused\s+(?:to|for|as)\b/i;

/**
 * The names a short question asks the uses of (`symbols`: the analysis's code names, strongest first), or
 * none. Only names written in the question count.
 */
export function usageNames(question: string, symbols: readonly string[]): string[] {
  if (symbols.length === 0 || !USAGE_QUESTIONS.some((q) => q.test(question)) || CALLEES.test(question) || PURPOSE.test(question)) return [];
  return symbols.filter((s) => question.includes(s)).slice(0, 3);
}
