/** A question: a `?` anywhere, or an opening question word ("how", "where", "does", ...). */
const QUESTION = /\?|^\s*(?:how|where|what|which|why|when|who|can|could|should|would|do|does|is|are)\b/i;

export const isQuestion = (text: string): boolean => QUESTION.test(text);
