/**
 * Answers for POST /v2/query: from the chat model when one is configured (grounded in the retrieved
 * code, citing `path:start-end`), else an extractive markdown answer built from the top references,
 * so the service is useful offline.
 */
import type { ChatMessage, ChatModel } from "../models/chat.ts";
import type { ChunkDocument } from "../codeindex/port.ts";
import type { SearchHitFile } from "./search.ts";

export type AnswerSource = SearchHitFile & { repository: string; remote: string };

const LANG_FENCE: Record<string, string> = { python: "python", typescript: "typescript", javascript: "javascript", tsx: "tsx", go: "go", rust: "rust", java: "java", ruby: "ruby", c: "c", cpp: "cpp", csharp: "csharp", php: "php", kotlin: "kotlin", swift: "swift", scala: "scala", bash: "bash" };

function kindWord(doc: ChunkDocument): string {
  return doc.kind === "block" || doc.kind === "lines" ? "code" : doc.kind;
}

function quote(doc: ChunkDocument, maxLines: number): string {
  const lines = doc.text.split("\n");
  const shown = lines.slice(0, maxLines);
  const more = lines.length > maxLines ? `\n# … ${lines.length - maxLines} more lines` : "";
  return "```" + (LANG_FENCE[doc.language] ?? "") + "\n" + shown.join("\n").replace(/```/g, "`\u200b``") + more + "\n```";
}

const firstSentence = (text: string) => {
  const t = text.replace(/\s+/g, " ").trim();
  const m = /^(.{20,300}?[.!?])(\s|$)/.exec(t);
  return m ? m[1]! : t.slice(0, 300);
};

/** Markdown answer from the references alone: which files, functions and classes do what, quoted with line ranges. */
export function extractiveAnswer(question: string, sources: AnswerSource[], notes: string[] = []): string {
  const out: string[] = [];
  for (const n of notes) out.push(`> **Note:** ${n}`);
  if (notes.length) out.push("");
  if (sources.length === 0) {
    out.push("I found no indexed code that matches this question. Try naming a function, class, file or error message.");
    return out.join("\n");
  }
  const q = question.replace(/\s+/g, " ").trim();
  out.push(`Here is where the indexed code deals with “${q.length > 120 ? q.slice(0, 117) + "…" : q}” (no language model is configured, so this answer quotes the most relevant code):`);
  out.push("");
  sources.slice(0, 5).forEach((s, i) => {
    const range = s.linestart !== null ? ` (lines ${s.linestart}–${s.lineend})` : "";
    out.push(`${i + 1}. **\`${s.path}\`**${range} in \`${s.repository}\``);
    if (s.summary) out.push(`   ${firstSentence(s.summary)}`);
    for (const c of s.chunks.slice(0, 3)) {
      if (!c.symbol) continue;
      const name = c.parent ? `${c.parent}.${c.symbol}` : c.symbol;
      out.push(`   - \`${name}\` (${kindWord(c)}, lines ${c.startLine}–${c.endLine}): ${firstSentence(c.summary)}`);
    }
  });
  const top = sources.slice(0, 2).filter((s) => s.chunks[0]);
  if (top.length) {
    out.push("");
    out.push("Most relevant code:");
    for (const s of top) {
      const c = s.chunks[0]!;
      out.push("");
      out.push(`\`${s.path}:${c.startLine}-${c.endLine}\``);
      out.push(quote(c, 25));
    }
  }
  return out.join("\n");
}

export const SYSTEM_PROMPT =
  "You are Loupe, an assistant that answers questions about source code repositories. Answer from the code excerpts " +
  "provided in the conversation; they come from the repositories the user selected. Cite the files you rely on as " +
  "`path:start-end`. When the excerpts do not contain the answer, say so and point to the most relevant files. Use markdown.";

/** The context block given to the chat model: the references with their best chunks. */
export function contextBlock(sources: AnswerSource[], maxChars = 24_000): string {
  const parts: string[] = [];
  let used = 0;
  for (const s of sources.slice(0, 8)) {
    for (const c of s.chunks.slice(0, 2)) {
      const block = `### ${s.repository} ${s.path}:${c.startLine}-${c.endLine}\n${s.summary ? `File: ${firstSentence(s.summary)}\n` : ""}\`\`\`\n${c.text.slice(0, 4000)}\n\`\`\``;
      if (used + block.length > maxChars) break;
      parts.push(block);
      used += block.length;
    }
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
  const context = contextBlock(input.sources);
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
