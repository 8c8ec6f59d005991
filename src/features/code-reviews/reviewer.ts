/**
 * Findings for one file of a change: the deterministic analysers, PATTERN custom context matched
 * against added lines, `.loupe/` repository rules, and (when configured) the chat model with the
 * in-scope CUSTOM_INSTRUCTIONs. Only findings on added lines survive, and the code graph's findings on
 * the file as a whole (a deleted or moved file that others still import); strictness filters them.
 */
import type { DiffFile } from "../../review/diff.ts";
import { isSeverity, isValidFindingLocation, isWholeFile, compareFindings, severityRank, type Finding } from "../../review/findings.ts";
import { analyserContext, runAnalysers } from "../../review/analysers/index.ts";
import { contextForModel, matchPatterns, type CustomContextLike } from "../../review/patterns.ts";
import { repoRuleAsContext, type RepoRuleSet } from "../../review/repo-rules.ts";
import { filterByStrictness } from "../../review/strictness.ts";
import type { ChatModel } from "../../models/chat.ts";
import type { Logger } from "../../logging.ts";

export type FileReviewInput = {
  file: DiffFile;
  repository: string;
  /** The review's strictness; a `.loupe/config.json` over the file that sets one takes its place. */
  strictness: number;
  contexts: readonly CustomContextLike[];
  rules: RepoRuleSet | null;
  chat: ChatModel | null;
  logger: Logger;
  /** Extra context for the model (e.g. related code from the index); optional. */
  relatedCode?: string;
  /** The pull request as the model sees it: title, description, and the other files it changes. */
  pullRequest?: { title: string; description: string; otherFiles: readonly string[] };
  /** The file at the pull request's base (the diff's base commit); null for an added file. Read for the model, and for the analysers when the change adds output calls. */
  baseContent?: string | null;
  /**
   * Findings on this file from the rest of the repository (broken callers, ./graph-findings.ts;
   * existing helpers, ./graph-review.ts): reviewed like the others, and told to the model.
   */
  graphFindings?: readonly Finding[];
  /** What else the model is told of the repository about this file (tests not updated, ./graph-review.ts). */
  graphNotes?: string;
};

export type FileReview = {
  findings: Finding[];
  /** Whether the chat model reviewed the file ("none": no model, or nothing for it to read). */
  model: "reviewed" | "failed" | "none";
};

const MAX_MODEL_LINES = 800;

export async function reviewFile(input: FileReviewInput): Promise<FileReview> {
  const { file, repository } = input;
  const scoped = input.rules ? input.rules.rulesFor(file.path, { repository }) : null;
  // A `.loupe/config.json` over the file that sets a strictness (the nearest) decides it.
  const strictness = scoped?.strictness ?? input.strictness;
  const wholeFile = (input.graphFindings ?? []).filter((f) => isWholeFile(f) && f.path === file.path);
  if (file.binary || file.status === "deleted") return { findings: filterByStrictness(wholeFile, strictness), model: "none" };
  const ruleContexts = scoped ? scoped.rules.map(repoRuleAsContext) : [];
  const contexts = [...input.contexts, ...ruleContexts];
  const findings: Finding[] = [...runAnalysers(file, undefined, analyserContext(file, input.baseContent)), ...matchPatterns(file, contexts, { repository }), ...(input.graphFindings ?? [])];
  let model: FileReview["model"] = "none";
  if (input.chat) {
    const instructions = contextForModel(contexts, { repository, filepath: file.path });
    try {
      const answer = await modelFindings(input.chat, { ...input, instructions });
      if (answer) {
        findings.push(...answer);
        model = "reviewed";
      }
    } catch (error) {
      model = "failed";
      input.logger.warn({ path: file.path, err: { message: error instanceof Error ? error.message : String(error) } }, "model review of a file failed; deterministic findings only");
    }
  }
  const placed = findings.filter((f) => isValidFindingLocation(f, file) || wholeFile.includes(f));
  return { findings: oneCommentPerLine(filterByStrictness(placed, strictness)).sort(compareFindings), model };
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

const MAX_BASE_CHARS = 4000;
const BASE_MARGIN = 15;

/** The base version's lines around the hunks (old numbering), bounded: the code as it was before the change. */
function baseExcerpt(file: DiffFile, content: string): string {
  const lines = content.split("\n");
  const keep = new Set<number>();
  for (const h of file.hunks) {
    const from = Math.max(1, h.oldStart - BASE_MARGIN);
    const to = Math.min(lines.length, h.oldStart + Math.max(h.oldLines, 1) - 1 + BASE_MARGIN);
    for (let n = from; n <= to; n++) keep.add(n);
  }
  const out: string[] = [];
  let used = 0;
  let last = 0;
  for (const n of [...keep].sort((a, b) => a - b)) {
    const line = `${String(n).padStart(5)} ${lines[n - 1] ?? ""}`;
    if (used + line.length > MAX_BASE_CHARS) {
      out.push("  ...");
      break;
    }
    if (last && n > last + 1) out.push("  ...");
    out.push(line);
    used += line.length + 1;
    last = n;
  }
  return out.join("\n");
}

/**
 * Asks the model for findings on the added lines; anything not on an added line is dropped. The
 * model sees the pull request's title and description, the other files it changes, the file's
 * diff with its deleted lines (old numbering) and added lines (new numbering), the file as it was
 * at the pull request's base, the team rules in scope and related code from the index. Null when
 * there is nothing for it to read.
 */
async function modelFindings(
  chat: ChatModel,
  input: FileReviewInput & { instructions: readonly CustomContextLike[] },
): Promise<Finding[] | null> {
  const { file, instructions, relatedCode, pullRequest, graphNotes } = input;
  const graphFound = [...(input.graphFindings ?? []).map((f) => `- ${isWholeFile(f) ? "the file" : `line ${f.lineStart}`}: ${f.message.slice(0, 1500)}`), ...(graphNotes ? [graphNotes.slice(0, 3000)] : [])];
  const lines: string[] = [];
  for (const h of file.hunks) {
    if (lines.length > 0) lines.push("@@");
    for (const l of h.lines) {
      if (l.kind === "del") lines.push(`-${String(l.oldLine).padStart(5)} ${l.text}`);
      else lines.push(`${l.kind === "add" ? "+" : " "}${String(l.newLine).padStart(5)} ${l.text}`);
      if (lines.length >= MAX_MODEL_LINES) break;
    }
  }
  if (!lines.some((l) => l.startsWith("+"))) return null;
  const rules = instructions.map((c) => `- [${c.id}] ${c.body.slice(0, 2000)}`).join("\n");
  const system =
    "You review one file of a pull request. Report only real problems on added lines (marked +); lines marked - were deleted (old numbering). " +
    'Answer with JSON only: {"findings":[{"line":N,"endLine":N,"severity":"critical|high|medium|low|info","message":"...","suggestion":"replacement code for exactly those lines, optional","contextId":"id of the team rule it follows, optional"}]}. ' +
    'No findings: {"findings":[]}.';
  const others = pullRequest?.otherFiles.filter((p) => p !== file.path) ?? [];
  const prompt =
    (pullRequest ? `Pull request: ${pullRequest.title}\n${pullRequest.description.trim() ? `${pullRequest.description.trim().slice(0, 3000)}\n` : ""}` : "") +
    (others.length > 0 ? `Other files this pull request changes: ${others.slice(0, 50).join(", ")}${others.length > 50 ? ` and ${others.length - 50} more` : ""}\n` : "") +
    `File: ${file.path}${file.status === "renamed" && file.oldPath ? ` (renamed from ${file.oldPath})` : ""}\n` +
    (rules ? `Team rules that apply to this file:\n${rules}\n` : "") +
    (relatedCode ? `Related code elsewhere in the repository:\n${relatedCode.slice(0, 6000)}\n` : "") +
    (graphFound.length ? `Already found from the repository's code graph (do not repeat them):\n${graphFound.join("\n")}\n` : "") +
    (input.baseContent ? `The file ${file.oldPath ?? file.path} before the change (the pull request's base, old numbering):\n${baseExcerpt(file, input.baseContent)}\n` : "") +
    `Changes (- deleted, old numbering; + added and context, new numbering):\n${lines.join("\n")}`;
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
