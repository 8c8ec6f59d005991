/**
 * Shared zod pieces of the tool schemas (interface.md 2, 4.2, 8). Input schemas are strict: an
 * unknown parameter is a -32602 naming it (`_meta`, which MCP clients may add, is removed before
 * validation). Output schemas describe the exact response shapes; results are parsed through them,
 * so a response never carries a field the interface does not name.
 */
import { z } from "zod";
import type { Principal } from "../../../features/access/service.ts";
import type { Services } from "../../../services.ts";
import type { Logger } from "../../../logging.ts";

export const REMOTES = ["github", "gitlab", "azure", "bitbucket"] as const;
export const remote = z.enum(REMOTES).describe("Hosting provider: github, gitlab, azure or bitbucket");

export const repositoryName = z
  .string()
  .min(1)
  .max(300)
  .regex(/^[^/\s]+(\/[^/\s]+)+$/, { error: "expected a repository name of the form owner/repo" })
  .describe("Repository name, form owner/repo (GitLab: group/subgroup/project; Azure: org/project/repo)");

export const defaultBranch = z.string().min(1).max(255).describe("Default branch of the repository");

export const prNumber = z.number().int().min(1).describe("Pull/merge request number");

/** `limit` with its default and maximum (interface.md section 8). */
export const limit = (defaultValue: number, max: number) =>
  z.number().int().min(1).max(max).default(defaultValue).describe(`Maximum number of results (default ${defaultValue}, max ${max})`);

export const offset = z.number().int().min(0).default(0).describe("Number of results to skip (pagination offset, default 0)");

/**
 * ISO 8601 date or date-time: `2024-05-01`, `2024-05-01T12:00:00Z`, `2024-05-01T12:00:00.123+02:00`;
 * a date-time without a zone is read as UTC. Parsed to a canonical `toISOString()` value.
 */
export const isoDate = z
  .union([z.iso.datetime({ offset: true, local: true }), z.iso.date()], {
    error: (issue) =>
      issue.input === undefined || typeof issue.input === "string"
        ? "expected an ISO 8601 date or date-time (e.g. 2024-05-01 or 2024-05-01T12:00:00Z)"
        : `Invalid input: expected string, received ${issue.input === null ? "null" : Array.isArray(issue.input) ? "array" : typeof issue.input}`,
  })
  .transform((value) => {
    const zoned = /T/.test(value) && !/(Z|[+-]\d{2}:\d{2})$/i.test(value) ? `${value}Z` : value;
    return new Date(zoned).toISOString();
  });

export const reviewStatus = z.enum(["PENDING", "REVIEWING_FILES", "GENERATING_SUMMARY", "COMPLETED", "FAILED", "SKIPPED"]);
export const customContextType = z.enum(["CUSTOM_INSTRUCTION", "PATTERN"]);
export const customContextStatus = z.enum(["ACTIVE", "INACTIVE", "SUGGESTED"]);

/** The optional repository group: `name`, `remote`, `defaultBranch` together or none (interface.md 4.2). */
export const repositoryGroupFields = {
  name: repositoryName.optional(),
  remote: remote.optional(),
  defaultBranch: defaultBranch.optional(),
};

export const REPOSITORY_GROUP = ["name", "remote", "defaultBranch"] as const;

export function checkRepositoryGroup(value: Partial<Record<(typeof REPOSITORY_GROUP)[number], unknown>>, ctx: z.RefinementCtx) {
  const given = REPOSITORY_GROUP.filter((key) => value[key] !== undefined);
  if (given.length === 0 || given.length === REPOSITORY_GROUP.length) return;
  for (const key of REPOSITORY_GROUP.filter((k) => value[k] === undefined)) {
    ctx.addIssue({
      code: "custom",
      path: [key],
      message: `name, remote and defaultBranch must be given together or all omitted (${given.join(", ")} given)`,
    });
  }
}

/** The required repository parameters of the per-PR tools. */
export const repositoryFields = { name: repositoryName, remote, defaultBranch };

// ---------------------------------------------------------------- output pieces (interface.md 2)

const isoTimestamp = z.string().describe("ISO 8601 timestamp");
const count = z.number().int().min(0);

export const mergeRequestListItem = z.object({
  id: z.string(),
  number: z.number(),
  title: z.string(),
  state: z.enum(["open", "closed"]),
  isDraft: z.boolean(),
  authorLogin: z.string(),
  branches: z.object({ source: z.string(), target: z.string() }),
  repository: z.object({ name: z.string(), remote: z.string() }),
  stats: z.object({ changedFiles: count, additions: count, deletions: count }),
  commentsCount: count,
  reviewsCount: count,
  createdAt: isoTimestamp,
});

export const reviewComment = z.object({
  id: z.string(),
  commentId: z.string(),
  body: z.string(),
  authorLogin: z.string(),
  filePath: z.string().nullable(),
  lineStart: z.number().nullable(),
  lineEnd: z.number().nullable(),
  isGreptileComment: z.boolean(),
  addressed: z.boolean(),
  createdAt: isoTimestamp,
  hasSuggestion: z.boolean(),
  suggestedCode: z.string().nullable(),
  linkedMemory: z.record(z.string(), z.unknown()).nullable(),
});

export const commentMergeRequestRef = z.object({
  id: z.string(),
  prNumber: z.number(),
  title: z.string(),
  sourceRepoUrl: z.string(),
  repository: z.object({ name: z.string() }),
});

export const searchedComment = reviewComment.extend({
  sourceType: z.string(),
  mergeRequest: commentMergeRequestRef,
});

export const codeReviewMetadata = z.object({
  strictness: z.number().int().min(1).max(5),
  totalFiles: count,
  completedFiles: count,
  correlationId: z.string(),
});

export const codeReviewListItem = z.object({
  id: z.string(),
  status: reviewStatus,
  createdAt: isoTimestamp,
  completedAt: isoTimestamp.nullable(),
  metadata: codeReviewMetadata,
  mergeRequest: commentMergeRequestRef,
});

export const codeReviewDetail = codeReviewListItem.extend({
  body: z.string(),
  /** Additive: why a FAILED or SKIPPED review ended so (null otherwise). */
  reason: z.string().nullable(),
  mergeRequest: commentMergeRequestRef.extend({
    description: z.string(),
    authorLogin: z.string(),
    repository: z.object({ id: z.string(), name: z.string(), remote: z.string() }),
  }),
});

export const mergeRequestDetail = z.object({
  number: z.number(),
  title: z.string(),
  description: z.string(),
  state: z.enum(["open", "closed"]),
  isDraft: z.boolean(),
  authorLogin: z.string(),
  branches: z.object({ source: z.string(), target: z.string() }),
  stats: z.object({ changedFiles: count, additions: count, deletions: count }),
  labels: z.array(z.string()),
  comments: z.object({ greptile: z.array(reviewComment), human: z.array(reviewComment) }),
  codeReviews: z.array(
    z.object({ id: z.string(), status: reviewStatus, createdAt: isoTimestamp, completedAt: isoTimestamp.nullable() }),
  ),
  reviewAnalysis: z.object({
    totalGreptileComments: count,
    totalHumanComments: count,
    addressedComments: z.array(z.unknown()),
    unaddressedComments: z.array(z.unknown()),
    commitsSinceLastReview: z.array(z.unknown()),
    lastReviewDate: isoTimestamp.nullable(),
    reviewCompleteness: z.string(),
    hasNewCommitsSinceReview: z.boolean(),
  }),
});

const freeObject = z.record(z.string(), z.unknown());

export const customContextBase = z.object({
  id: z.string(),
  type: customContextType,
  body: z.string(),
  status: customContextStatus,
  scopes: freeObject,
  metadata: freeObject,
  createdAt: isoTimestamp,
});

export const customContextListItem = customContextBase.extend({ evidenceCount: count, commentsCount: count });
export const customContextDetail = customContextListItem.extend({ linkedComments: z.array(z.unknown()) });

// ---------------------------------------------------------------- tool definition

export type ToolContext = {
  principal: Principal;
  services: Services;
  logger: Logger;
  /** Correlation id of the HTTP request (x-request-id). */
  requestId: string;
  /** The host token the request carries for a remote (X-Host-Token, X-GitHub-Token, ...), if any. */
  hostToken(remote: string): string | undefined;
  /** The service's base URL as the client reached it (for status endpoints). */
  origin: string;
  /** Reports progress to the client when it asked for it (`_meta.progressToken`); a no-op otherwise. */
  progress(message: string, progress: number, total?: number): void;
};

export type ToolDefinition<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> = {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  readOnly: boolean;
  /** Checked on the raw arguments before the schema: a rule whose error is not a -32602. */
  precheck?: (args: Record<string, unknown>) => void;
  run(args: z.output<I>, ctx: ToolContext): Promise<z.input<O>>;
};

/** Who acts, for the events a tool's command appends: the caller's key, the request's correlation id. */
export const commandContextOf = (ctx: ToolContext) => ({ orgId: ctx.principal.orgId, actor: ctx.principal.keyId, correlationId: ctx.requestId, causationId: null });

export const defineTool = <I extends z.ZodType, O extends z.ZodType>(tool: ToolDefinition<I, O>) =>
  tool as unknown as ToolDefinition;
