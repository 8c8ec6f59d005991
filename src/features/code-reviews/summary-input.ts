/**
 * What the summary of a review says beyond its findings: the definitions the change adds, changes and
 * removes (base and head versions of each changed file, src/review/change-outline.ts), what the review
 * checked, the team instructions a human has to check when no model did, the team patterns and
 * repository rules skipped for a regex over the cost limit, and the earlier comments still open.
 */
import type { DiffFile } from "../../review/diff.ts";
import { isSkippedPath } from "../../review/analysers/context.ts";
import { outlineChange, type FileOutline } from "../../review/change-outline.ts";
import type { ParseFile } from "../../review/graph/calls.ts";
import { contextApplies, contextForModel, patternNeedles, skippedPatterns, type CustomContextLike } from "../../review/patterns.ts";
import { repoRuleAsContext, type RepoRuleSet } from "../../review/repo-rules.ts";
import type { ReviewChecks, SummaryInput } from "../../review/summary.ts";

/** Files of a change whose definitions are outlined (the rest are listed as not parsed). */
const MAX_OUTLINED_FILES = 200;

type ReadFile = (sha: string, path: string) => Promise<string | null>;

/** The definitions each changed file adds, changes and removes between `base` and `head`. */
export async function outlineOf(files: readonly DiffFile[], base: string, head: string, read: ReadFile, parse?: ParseFile): Promise<FileOutline[]> {
  const wanted = files.filter((f) => !f.binary && !isSkippedPath(f.path)).slice(0, MAX_OUTLINED_FILES);
  const versions = [];
  for (const f of wanted) {
    const before = f.status === "added" || !f.oldPath ? null : await read(base, f.oldPath).catch(() => null);
    const after = f.status === "deleted" || !f.newPath ? null : await read(head, f.newPath).catch(() => null);
    versions.push({ path: f.path, oldPath: f.oldPath, before, after });
  }
  return outlineChange(versions, parse);
}

/** In-scope contexts per reviewed file: the organisation's ACTIVE ones and the file's `.loupe/` rules. */
function contextsFor(path: string, repository: string, contexts: readonly CustomContextLike[], rules: RepoRuleSet | null): CustomContextLike[] {
  const ruleContexts = rules ? rules.rulesFor(path, { repository }).rules.map(repoRuleAsContext) : [];
  return [...contexts, ...ruleContexts];
}

export function checksAndHumanChecks(input: {
  reviewedFiles: readonly string[];
  repository: string;
  contexts: readonly CustomContextLike[];
  rules: RepoRuleSet | null;
  model: ReviewChecks["model"];
}): { checks: ReviewChecks; humanChecks: NonNullable<SummaryInput["humanChecks"]>; skippedRules: NonNullable<SummaryInput["skippedRules"]> } {
  const patterns = new Set<string>();
  const human = new Map<string, { id: string; body: string; files: string[] }>();
  const skipped = new Map<string, NonNullable<SummaryInput["skippedRules"]>[number] & { files: string[] }>();
  for (const path of input.reviewedFiles) {
    const target = { repository: input.repository, filepath: path };
    const scoped = contextsFor(path, input.repository, input.contexts, input.rules);
    for (const { context, costly } of skippedPatterns(scoped, target)) {
      const entry = skipped.get(context.id) ?? { ...ruleName(context), regex: costly.regex, reason: costly.message, files: [] };
      entry.files.push(path);
      skipped.set(context.id, entry);
    }
    for (const c of scoped) {
      if (c.type === "PATTERN" && contextApplies(c, target) && !skipped.has(c.id) && patternNeedles(c.body).needles.length > 0) patterns.add(c.id);
    }
    // Instructions (and patterns with nothing to match): the model's, or a human's when there is none.
    if (input.model !== "all") {
      for (const c of contextForModel(scoped, target)) {
        const entry = human.get(c.id) ?? { id: c.id, body: c.body, files: [] };
        entry.files.push(path);
        human.set(c.id, entry);
      }
    }
  }
  return {
    checks: {
      reviewedFiles: input.reviewedFiles.length,
      patterns: [...patterns].filter((id) => !id.startsWith("repo:")).length,
      rules: [...patterns].filter((id) => id.startsWith("repo:")).length,
      model: input.model,
    },
    humanChecks: [...human.values()],
    skippedRules: [...skipped.values()],
  };
}

/** A rule as the summary names it: a `.loupe/` rule by its id and file, a custom context by its id. */
function ruleName(c: CustomContextLike): { id: string; source: string | null } {
  const source = c.metadata?.["source"];
  return c.id.startsWith("repo:") && typeof source === "string" ? { id: c.id.slice("repo:".length), source } : { id: c.id, source: null };
}
