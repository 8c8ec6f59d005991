import { z } from "zod";
import { defineEvent, eventIn, type DecidedEventOf, type EventOf } from "../../eventstore/catalogue.ts";

/**
 * Repository indexing. Stream: `repository-<orgId>-<repoId>` (./decider.ts). A job (jobId) runs
 * Submitted -> IndexingStarted -> FilesIndexed* -> IndexingCompleted | IndexingFailed.
 *
 * No source text and no host token is ever recorded: the mirror is content-addressed, so the code
 * index can be rebuilt from these events (path + blobId) and the mirror.
 */
export const MAX_SKIPPED_RECORDED = 1000;
export const MAX_SYMBOLS_PER_FILE = 40;
export const MAX_SAMPLE_QUESTIONS = 10;

const remote = z.enum(["github", "gitlab", "bitbucket", "azure"]);
const repoId = z.string().min(1).max(600);
const sha = z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/, "must be a full object id");
const branch = z.string().min(1).max(255);

export const RepositorySubmitted = defineEvent(
  "RepositorySubmitted",
  1,
  z.object({
    repoId,
    orgId: z.string().min(1),
    jobId: z.string().min(1),
    remote,
    /** `owner/repo`, lower-cased. */
    repository: z.string().min(3).max(300),
    /** As requested; null = the repository's default branch. */
    branch: branch.nullable(),
    /** The branch the id was made with (the default branch resolved at submission when `branch` is null). */
    resolvedBranch: branch,
    reload: z.boolean(),
    notify: z.boolean(),
    /** A host token came with the request (the token itself is never recorded). */
    withToken: z.boolean(),
    /**
     * The repository's default branch as the host reported it at submission (its HEAD); null when the
     * host has none. Absent when the host was not asked, and in events recorded before it was.
     */
    defaultBranch: branch.nullable().optional(),
    /**
     * What the host says: true when the repository cannot be read without a token. Absent when the
     * host could not tell, and in events recorded before it was asked.
     */
    private: z.boolean().optional(),
  }),
);

/** Fields every event of an indexing job carries. */
const jobHeader = {
  repoId,
  orgId: z.string().min(1),
  jobId: z.string().min(1),
  branch,
  sha,
};

export const RepositoryIndexingStarted = defineEvent(
  "RepositoryIndexingStarted",
  1,
  z.object({
    ...jobHeader,
    /** Files that will be indexed (after the file filter). */
    numFiles: z.number().int().min(0),
    skipped: z.array(z.object({ path: z.string(), reason: z.string() })).max(MAX_SKIPPED_RECORDED),
    /** All skipped files, including those beyond the recorded list. */
    skippedCount: z.number().int().min(0),
    chunkerVersion: z.string().min(1),
    /** Version of the file choice (FILE_FILTER_VERSION); absent in events written before it existed. */
    fileFilterVersion: z.string().min(1).optional(),
  }),
);

export const RepositoryFilesIndexed = defineEvent(
  "RepositoryFilesIndexed",
  1,
  z.object({
    ...jobHeader,
    files: z
      .array(
        z.object({
          path: z.string().min(1),
          blobId: z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/),
          language: z.string(),
          symbols: z
            // label: the language's word for the definition (`struct`, `enum`, `trait`, `impl`, `macro`); absent in older events.
            .array(z.object({ name: z.string(), kind: z.string(), label: z.string().max(60).optional(), startLine: z.number().int(), endLine: z.number().int() }))
            .max(MAX_SYMBOLS_PER_FILE),
          /** Chunks written; 0 when reused. */
          chunks: z.number().int().min(0),
          /** Already in the code index (same path and blob, same chunker version): not parsed again. */
          reused: z.boolean(),
          /** Set when the parser failed and the file was indexed by lines. */
          parseError: z.string().max(300).optional(),
        }),
      )
      .min(1),
  }),
);

export const RepositoryIndexingCompleted = defineEvent(
  "RepositoryIndexingCompleted",
  1,
  z.object({
    ...jobHeader,
    filesProcessed: z.number().int().min(0),
    numFiles: z.number().int().min(0),
    sampleQuestions: z.array(z.string().max(300)).max(MAX_SAMPLE_QUESTIONS),
  }),
);

export const RepositoryIndexingFailed = defineEvent(
  "RepositoryIndexingFailed",
  1,
  z.object({
    repoId,
    orgId: z.string().min(1),
    jobId: z.string().min(1),
    branch,
    /** Why, in words fit for the client; never contains a token. */
    reason: z.string().min(1).max(2000),
  }),
);

export const repositoryEvents = [
  RepositorySubmitted,
  RepositoryIndexingStarted,
  RepositoryFilesIndexed,
  RepositoryIndexingCompleted,
  RepositoryIndexingFailed,
];

export type RepositoryEvent =
  | EventOf<typeof RepositorySubmitted>
  | EventOf<typeof RepositoryIndexingStarted>
  | EventOf<typeof RepositoryFilesIndexed>
  | EventOf<typeof RepositoryIndexingCompleted>
  | EventOf<typeof RepositoryIndexingFailed>;
export type RepositoryDecidedEvent =
  | DecidedEventOf<typeof RepositorySubmitted>
  | DecidedEventOf<typeof RepositoryIndexingStarted>
  | DecidedEventOf<typeof RepositoryFilesIndexed>
  | DecidedEventOf<typeof RepositoryIndexingCompleted>
  | DecidedEventOf<typeof RepositoryIndexingFailed>;

export const isRepositoryEvent = eventIn(repositoryEvents);
