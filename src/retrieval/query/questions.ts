import type { QueryAnalysis } from "./types.ts";

/** A question: a `?` anywhere, or an opening question word ("how", "where", "does", ...). */
const QUESTION = /\?|^\s*(?:how|where|what|which|why|when|who|can|could|should|would|do|does|is|are)\b/i;

export const isQuestion = (text: string): boolean => QUESTION.test(text);

/** A report or a commit message rather than a short question: long, or not asking. */
export const readsAsReport = (analysis: Pick<QueryAnalysis, "isLongReport">, query: string): boolean => analysis.isLongReport || !isQuestion(query);
