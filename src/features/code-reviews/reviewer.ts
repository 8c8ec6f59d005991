/**
 * Findings for one file of a change: the deterministic analysers, PATTERN custom context matched
 * against added lines, `.loupe/` repository rules, and (when configured) the chat model with the
 * in-scope CUSTOM_INSTRUCTIONs. Only findings on added lines survive; strictness filters them.
 */
import type { DiffFile } from "../../review/diff.ts";
import { isSeverity, isValidFindingLocation, compareFindings, severityRank, type Finding } from "../../review/findings.ts";
import { runAnalysers } from "../../review/analysers/index.ts";
import { contextForModel, matchPatterns, type CustomContextLike } from "../../review/patterns.ts";
import { repoRuleAsContext, type RepoRuleSet } from "../../review/repo-rules.ts";
import { filterByStrictness } from "../../review/strictness.ts";
import type { ChatModel } from "../../models/chat.ts";
import type { Logger } from "../../logging.ts";

export type FileReviewInput = {
  file: DiffFile;
  repository: string;
  strictness: number;
  contexts: readonly CustomContextLike[];
  rules: RepoRuleSet | null;
  chat: ChatModel | null;
  logger: Logger;
  /** Extra context for the model (e.g. related code from the index); optional. */
  relatedCode?: string;
};

const MAX_MODEL_LINES = 800;

export async function reviewFile(input: FileReviewInput): Promise<Finding[]> {
  const { file, repository } = input;
  if (file.binary || file.status === "deleted") return [];
  const ruleContexts = input.rules ? input.rules.rulesFor(file.path, { repository }).rules.map(repoRuleAsContext) : [];
  const contexts = [...input.contexts, ...ruleContexts];
  const findings: Finding[] = [...runAnalysers(file), ...matchPatterns(file, contexts, { repository })];
  if (input.chat) {
    const instructions = contextForModel(contexts, { repository, filepath: file.path });
    try {
      findings.push(...(await modelFindings(input.chat, file, instructions, input.relatedCode)));
    } catch (error) {
      input.logger.warn({ path: file.path, err: { message: error instanceof Error ? error.message : String(error) } }, "model review of a file failed; deterministic findings only");
    }
  }
  return oneCommentPerLine(filterByStrictness(findings.filter((f) => isValidFindingLocation(f, file)), input.strictness)).sort(compareFindings);
}

/**
 * A team's own rule (a PATTERN, an instruction, a `.loupe/` rule) and a built-in analyser that flag the
 * same line make one comment, the team's: the analyser's finding is dropped unless it is more severe.
 */
export function oneCommentPerLine(findings: readonly Finding[]): Finding[] {
  const teams = findings.filter((f) => f.customContextId !== undefined);
  return findings.filter(
    (f) =>
      f.customContextId !== undefined ||
      !teams.some((t) => t.lineStart <= f.lineEnd && f.lineStart <= t.lineEnd && severityRank(f.severity) >= severityRank(t.severity)),
  );
}

/** Asks the model for findings on the added lines; anything not on an added line is dropped. */
async function modelFindings(chat: ChatModel, file: DiffFile, instructions: readonly CustomContextLike[], relatedCode?: string): Promise<Finding[]> {
  const lines: string[] = [];
  for (const h of file.hunks) {
    for (const l of h.lines) {
      if (l.kind === "del") continue;
      lines.push(`${l.kind === "add" ? "+" : " "}${String(l.newLine).padStart(5)} ${l.text}`);
      if (lines.length >= MAX_MODEL_LINES) break;
    }
  }
  if (!lines.some((l) => l.startsWith("+"))) return [];
  const rules = instructions.map((c) => `- [${c.id}] ${c.body.slice(0, 2000)}`).join("\n");
  const system =
    "You review one file of a pull request. Report only real problems on added lines (marked +). " +
    'Answer with JSON only: {"findings":[{"line":N,"endLine":N,"severity":"critical|high|medium|low|info","message":"...","suggestion":"replacement code for exactly those lines, optional","contextId":"id of the team rule it follows, optional"}]}. ' +
    'No findings: {"findings":[]}.';
  const prompt =
    `File: ${file.path}\n` +
    (rules ? `Team rules that apply to this file:\n${rules}\n` : "") +
    (relatedCode ? `Related code elsewhere in the repository:\n${relatedCode.slice(0, 6000)}\n` : "") +
    `Lines (new numbering):\n${lines.join("\n")}`;
  const answer = await chat.complete({ system, messages: [{ role: "user", content: prompt }], maxTokens: 1500, temperature: 0 });
  const json = /\{[\s\S]*\}/.exec(answer)?.[0];
  if (!json) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [];
  }
  const raw = (parsed as { findings?: unknown }).findings;
  if (!Array.isArray(raw)) return [];
  const ids = new Set(instructions.map((c) => c.id));
  const out: Finding[] = [];
  for (const item of raw.slice(0, 50)) {
    const f = item as Record<string, unknown>;
    const line = Number(f.line);
    const endLine = f.endLine === undefined ? line : Number(f.endLine);
    if (!Number.isInteger(line) || !Number.isInteger(endLine) || typeof f.message !== "string" || f.message.trim() === "") continue;
    const contextId = typeof f.contextId === "string" && ids.has(f.contextId) ? f.contextId : undefined;
    const finding: Finding = {
      ruleId: contextId ? "model/custom-instruction" : "model",
      severity: isSeverity(f.severity) ? f.severity : "medium",
      path: file.path,
      lineStart: line,
      lineEnd: Math.max(line, endLine),
      message: f.message.trim().slice(0, 4000),
    };
    if (typeof f.suggestion === "string") finding.suggestion = f.suggestion;
    if (contextId) finding.customContextId = contextId;
    if (isValidFindingLocation(finding, file)) out.push(finding);
  }
  return out;
}
