/**
 * The pieces of a code search request every face checks alike (HTTP `POST /v2/search` and `/v2/query`,
 * the MCP tools search_code, query_repositories and get_repository_status, the console's search form):
 * the same limits and the same worded messages. Each message names the problem; the face names the
 * field (`query: must not be empty`, HTTP 400 or JSON-RPC -32602).
 *
 * A repository reference is `{ remote, repository, branch? }`. Besides the four hosts, `remote: "local"`
 * with the bare name of a repository indexed by path (`widget-shop-1a2b3c4d`) is accepted, as results
 * show it; the service reads it as its stored form (`fromLocalAlias`, src/indexing/repo-id.ts).
 */
import { z } from "zod";
import { GitNameError, validateBranchName, validateRepositoryName } from "../../git/names.ts";
import { fromLocalAlias, LOCAL_ALIAS } from "../../indexing/repo-id.ts";

/** Characters of a search query or a question (a whole bug report fits). */
export const MAX_QUERY_CHARS = 100_000;
/** Repositories one request may name. */
export const MAX_REPOSITORIES = 20;
/** Files a search returns at most (`limit`). */
export const MAX_SEARCH_LIMIT = 100;

/** The remotes a repository reference may name: the four hosts, and `local` for repositories indexed by path. */
const REFERENCE_REMOTES = ["github", "gitlab", "bitbucket", "azure", LOCAL_ALIAS] as const;
export type ReferenceRemote = (typeof REFERENCE_REMOTES)[number];

const REMOTE_MESSAGE = `must be one of ${REFERENCE_REMOTES.join(", ")}`;

/** A search query or question: not blank, at most MAX_QUERY_CHARS characters. */
export const queryText = z
  .string({ error: "must be a string" })
  .max(MAX_QUERY_CHARS, `must be at most ${MAX_QUERY_CHARS} characters`)
  .regex(/\S/, "must not be empty");

/** `limit` of a search: files returned, 1 to MAX_SEARCH_LIMIT. */
export const searchLimit = z
  .number({ error: "must be a number" })
  .int("must be an integer")
  .min(1, "must be at least 1")
  .max(MAX_SEARCH_LIMIT, `must be at most ${MAX_SEARCH_LIMIT}`);

/** A query session id: letters, digits and `. _ : -`, at most 128 characters. */
export const sessionIdText = z
  .string({ error: "must be a string" })
  .trim()
  .min(1, "must not be empty")
  .max(128, "is too long (max 128 characters)")
  .regex(/^[A-Za-z0-9._:-]+$/, "may contain letters, digits and . _ : - only");

/** Exact lower-case remote names (the HTTP face also accepts any case and surrounding spaces). */
export const referenceRemote = z.enum(REFERENCE_REMOTES, { error: REMOTE_MESSAGE });

export const referenceRepository = z
  .string({ error: "must be a string of the form owner/repo (on remote local: the name of a local repository)" })
  .trim()
  .min(1, "must not be empty")
  .max(300, "is too long (max 300 characters)");

export const referenceBranch = z.string({ error: "must be a string" }).trim().max(255, "is too long (max 255 characters)");

/**
 * The names of a reference checked by the rules git names obey (src/git/names.ts), so a bad one is
 * refused naming its field before any host is asked. For a zod object's `superRefine`.
 */
export function checkRepositoryReference(ref: { remote: string; repository: string; branch?: string | null | undefined }, ctx: z.RefinementCtx): void {
  const problem = (field: "repository" | "branch", message: string) => ctx.addIssue({ code: "custom", path: [field], message });
  const check = (field: "repository" | "branch", run: () => unknown) => {
    try {
      run();
    } catch (error) {
      if (!(error instanceof GitNameError)) throw error;
      problem(field, error.problem);
    }
  };
  if (ref.remote === LOCAL_ALIAS && ref.repository.includes("/")) {
    problem("repository", "on remote local, must be the name of a local repository (<name>-<hash>, no '/'), as results show it");
  } else {
    const stored = fromLocalAlias(ref);
    check("repository", () => validateRepositoryName(stored.remote, stored.repository));
  }
  if (ref.branch) check("branch", () => validateBranchName(ref.branch!));
}

export const repositoriesMessage = "must be an array of { remote, repository, branch? }";
