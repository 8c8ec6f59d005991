/**
 * The chat model's request for POST /v2/query: the same spans an offline answer is made of (their code,
 * not file summaries), citing `path:start-end`.
 */
import type { ChatMessage, ChatModel } from "../../models/chat.ts";
import { MAX_DEFINITION_LINES } from "../../indexing/chunking/chunk-bounds.ts";
import { excerptOf } from "../excerpt.ts";
import { answerSpans, type AnswerSource } from "./spans.ts";
import { questionTerms } from "./terms.ts";

export const SYSTEM_PROMPT =
  "You are Loupe, an assistant that answers questions about source code repositories. Answer from the code excerpts " +
  "provided in the conversation; they come from the repositories the user selected. Cite the files you rely on as " +
  "`path:start-end`. When the excerpts do not contain the answer, say so and point to the most relevant files. Use markdown.";

/** Characters of one span's code given to the chat model at most. */
const CODE_CHARS = 6000;

/** The context given to the chat model: the retrieved spans' code, best first, within `maxChars`. */
export function contextBlock(question: string, sources: AnswerSource[], maxChars = 24_000): string {
  const parts: string[] = [];
  let used = 0;
  for (const s of answerSpans(questionTerms(question), sources, 12)) {
    const title = `### ${s.source.repository} ${s.source.path}:${s.linestart}-${s.lineend}${s.name ? ` (${s.label} ${s.name})` : ""}`;
    // A long definition's excerpt keeps the window the search matched (../excerpt.ts).
    const code = s.focus && s.code.length > CODE_CHARS ? excerptOf(s.code, s.linestart, s.focus, MAX_DEFINITION_LINES) : s.code;
    const block = `${title}\n\`\`\`\n${code.slice(0, CODE_CHARS)}\n\`\`\``;
    if (used + block.length > maxChars) break;
    parts.push(block);
    used += block.length;
  }
  return parts.join("\n\n");
}

export type ChatAnswerInput = {
  chat: ChatModel;
  /** Earlier turns of the session (oldest first) and the client's earlier messages. */
  history: ChatMessage[];
  systemExtra: string[];
  question: string;
  sources: AnswerSource[];
  notes: string[];
  signal?: AbortSignal;
};

export function chatRequest(input: ChatAnswerInput) {
  const context = contextBlock(input.question, input.sources);
  const notes = input.notes.length ? `\nNotes: ${input.notes.join(" ")}\n` : "";
  const user = `Code excerpts:\n\n${context || "(no matching code found)"}\n${notes}\nQuestion: ${input.question}`;
  const messages: ChatMessage[] = [...input.history.slice(-12), { role: "user", content: user }];
  // The chat port wants alternating turns starting with the user: merge neighbours of the same role.
  const merged: ChatMessage[] = [];
  for (const m of messages) {
    const last = merged[merged.length - 1];
    if (last && last.role === m.role) last.content += `\n\n${m.content}`;
    else merged.push({ ...m });
  }
  while (merged[0]?.role === "assistant") merged.shift();
  return {
    system: [SYSTEM_PROMPT, ...input.systemExtra].join("\n\n"),
    messages: merged,
    maxTokens: 1500,
    temperature: 0.1,
    ...(input.signal ? { signal: input.signal } : {}),
  };
}
