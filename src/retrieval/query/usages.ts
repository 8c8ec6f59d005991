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
  if (symbols.length === 0 || !isUsageQuestion(question)) return [];
  return symbols.filter((s) => question.includes(s)).slice(0, 3);
}

/**
 * The words of the usage shapes themselves: they say what is asked (the uses), not what the uses hold.
 * Kept as words, "called" found the comments that say "is called" ahead of the calls.
 */
export const USAGE_SHAPE_WORDS: ReadonlySet<string> = new Set(
  "call calls called caller callers invoke invokes invoked use uses used usage usages reference references referenced function functions".split(" "),
);

const SHAPE_WORD = new RegExp(`\\b(?:${[...USAGE_SHAPE_WORDS].join("|")})\\b`, "gi");

/** A usage question's text without the words of its shape, for the lexical query. */
export const withoutUsageShapeWords = (question: string): string => question.replace(SHAPE_WORD, " ");

/** A dot inside a code name (`c.Next()`, `ctx.throw`) ends no sentence: the shapes read across it. */
const withoutMemberDots = (question: string): string => question.replace(/(?<=[\w$)\]])\.(?=[A-Za-z_$])/g, "_");

/** Whether a short question asks where something is used (its shape, whatever it names). */
export function isUsageQuestion(question: string): boolean {
  const text = withoutMemberDots(question);
  return USAGE_QUESTIONS.some((q) => q.test(text)) && !CALLEES.test(text) && !PURPOSE.test(text);
}

/**
 * The capitalised words inside a sentence of a usage question ("Where is Next called?", "Which
 * functions call Render?"): such a question asks about a code name, and a word capitalised where a
 * sentence does not start is that name (Go's exported `Next`, a class), whatever it means in English.
 * A word at a sentence's start, `I`, and words in capitals (`HTTP`) are not taken.
 */
export function capitalisedNames(question: string): string[] {
  const out: string[] = [];
  for (const m of question.matchAll(/(?<=[\p{Ll}\d,)'’]\s+)[A-Z][a-z\d]+(?![\w$.])/gu)) if (!out.includes(m[0])) out.push(m[0]);
  return out;
}
