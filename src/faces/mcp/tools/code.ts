/**
 * The core of Loupe for assistants: index a repository, follow its indexing, search code, ask a
 * question, reopen a session. Same rules as the HTTP API: a repository is searched only when it is
 * indexed for the caller's organisation and the request's host token can read it.
 */
import { z } from "zod";
import { DomainError } from "../../../eventstore/decider.ts";
import { GitNameError } from "../../../git/names.ts";
import type { Remote } from "../../../hosts/index.ts";
import { SearchRefusal, type RepositoryReference, type Resolution } from "../../../features/code-search/service.ts";
import { repositoryStatus } from "../../../features/repositories/status.ts";
import { repositoryId } from "../../../indexing/repo-id.ts";
import { invalidParamsOf } from "../errors.ts";
import { commandContextOf, defineTool, remote, repositoryName, type ToolContext } from "./common.ts";
import {
  checkRepositoryReference,
  MAX_QUERY_CHARS,
  MAX_REPOSITORIES,
  MAX_SEARCH_LIMIT,
  queryText,
  referenceBranch,
  referenceRemote,
  referenceRepository,
  repositoriesMessage,
  searchLimit,
  sessionIdText,
} from "../../../features/code-search/request.ts";

const branch = z.string().min(1).max(255).describe("Branch; the repository's default branch when omitted");
/**
 * A repository to search or look up, checked as the HTTP API checks it (src/features/code-search/request.ts):
 * `remote: "local"` with the bare name names a repository indexed by path, as references and statuses show it.
 */
const repositoryRef = z
  .strictObject({
    remote: referenceRemote.describe("Hosting provider: github, gitlab, azure or bitbucket; or local for a repository indexed by path on the server"),
    repository: referenceRepository.describe(
      "Repository name, form owner/repo (GitLab: group/subgroup/project; Azure: org/project/repo); on remote local the name results show (e.g. shop-1a2b3c4d)",
    ),
    branch: referenceBranch.min(1, "must not be empty").describe("Branch; the repository's default branch when omitted").optional(),
  })
  .superRefine(checkRepositoryReference);
const repositories = z
  .array(repositoryRef, { error: repositoriesMessage })
  .min(1, "name at least one repository")
  .max(MAX_REPOSITORIES, `at most ${MAX_REPOSITORIES} repositories per request`)
  .describe(`Repositories to search: { remote, repository, branch? }, 1 to ${MAX_REPOSITORIES}; remote local with the name results show for a repository indexed by path`);
const sessionId = sessionIdText.describe("Query session id (from an earlier search or question): follow-ups use its earlier turns");

const reference = z.object({
  repository: z.string(),
  remote: z.string(),
  branch: z.string(),
  filepath: z.string(),
  linestart: z.number().int().nullable(),
  lineend: z.number().int().nullable(),
  code: z.string(),
  reason: z.string(),
  distance: z.number().nullable(),
});
const source = z.object({
  repository: z.string(),
  remote: z.string(),
  branch: z.string(),
  filepath: z.string(),
  linestart: z.number().int().nullable(),
  lineend: z.number().int().nullable(),
  summary: z.string(),
  distance: z.number().nullable(),
});
const status = z.looseObject({ id: z.string(), repository: z.string(), remote: z.string(), branch: z.string(), status: z.string(), filesProcessed: z.number(), numFiles: z.number() });

/** The request's repositories as the caller may search them; a refusal is the tool's error. */
async function resolve(ctx: ToolContext, refs: RepositoryReference[]): Promise<Resolution> {
  try {
    return await ctx.services.codeSearch.resolve(ctx.principal.orgId, refs, (r: Remote) => ctx.hostToken(r));
  } catch (error) {
    if (error instanceof SearchRefusal) throw new DomainError(error.kind === "not_found" ? "not_found" : "conflict", error.message);
    throw error;
  }
}

export const indexRepository = defineTool({
  name: "index_repository",
  title: "Index a repository",
  description:
    "Submit a repository for indexing (or re-indexing with reload). Returns at once with the repository id and its status " +
    "endpoint; poll get_repository_status until status is completed. Needs read access with the request's host token for private repositories.",
  input: z.strictObject({ remote, repository: repositoryName, branch: branch.optional(), reload: z.boolean().optional().describe("Index again even when the branch head is unchanged") }),
  output: z.object({ repositoryId: z.string(), statusEndpoint: z.string(), message: z.string(), started: z.boolean() }),
  readOnly: false,
  async run(args, ctx) {
    let result;
    try {
      result = await ctx.services.indexer.submit(
        { orgId: ctx.principal.orgId, remote: args.remote, repository: args.repository, branch: args.branch, reload: args.reload ?? false, hostToken: ctx.hostToken(args.remote) },
        commandContextOf(ctx),
      );
    } catch (error) {
      if (error instanceof GitNameError) throw invalidParamsOf(error.field, error.problem);
      throw error;
    }
    return { repositoryId: result.repoId, statusEndpoint: `${ctx.origin}/v2/repositories/${encodeURIComponent(result.repoId)}`, message: result.message, started: result.started };
  },
});

export const getRepositoryStatus = defineTool({
  name: "get_repository_status",
  title: "Indexing status of a repository",
  description: "The indexing status of a repository of your organisation: submitted, cloning, processing, completed or failed (with the reason), files processed of the total, languages, head commit.",
  input: repositoryRef,
  output: z.object({ repository: status }),
  readOnly: true,
  async run(args, ctx) {
    const { codeSearch, indexer } = ctx.services;
    const found = codeSearch.findRepository(ctx.principal.orgId, args);
    // The live phase of a running job (cloning) comes from the indexer.
    const record = found && indexer.get(ctx.principal.orgId, repositoryId(found.remote, found.branch, found.repository));
    if (!record) throw new DomainError("not_found", `Repository ${args.remote}:${args.branch ?? "(default branch)"}:${args.repository} is not indexed for this organisation`);
    return { repository: repositoryStatus(record) };
  },
});

export const searchCode = defineTool({
  name: "search_code",
  title: "Search code",
  description:
    "Natural-language or identifier search over indexed repositories. Returns references best first: file, line range, the code of " +
    "that span and a one-line reason; several spans of one file when several match. The session id lets a follow-up use this search.",
  input: z.strictObject({
    query: queryText.describe(`What to look for: a question, a name, an error message or a whole bug report (at most ${MAX_QUERY_CHARS} characters)`),
    repositories,
    limit: searchLimit.default(10).describe(`Files returned (default 10, max ${MAX_SEARCH_LIMIT}); each may bring up to 3 spans`),
    sessionId: sessionId.optional(),
  }),
  output: z.object({ references: z.array(reference), sessionId: z.string(), notes: z.array(z.string()) }),
  readOnly: true,
  async run(args, ctx) {
    const resolution = await resolve(ctx, args.repositories);
    const { sessionId: sid, files } = await ctx.services.querySessions.search(commandContextOf(ctx), resolution, { query: args.query, sessionId: args.sessionId, limit: args.limit, withCode: true });
    return { references: ctx.services.codeSearch.toCodeReferences(files, resolution.repos).slice(0, 100), sessionId: sid, notes: resolution.notes };
  },
});

export const queryRepositories = defineTool({
  name: "query_repositories",
  title: "Ask a question about code",
  description:
    "Ask a question about indexed repositories: an answer in markdown naming the definitions that answer it with their lines, and its " +
    "sources. Sends progress notifications while it works when the client asks for them. Follow up with the same sessionId.",
  input: z.strictObject({
    question: queryText.describe(`The question (at most ${MAX_QUERY_CHARS} characters)`),
    repositories,
    sessionId: sessionId.optional(),
    genius: z.boolean().optional().describe("Search deeper (slower)"),
  }),
  output: z.object({ answer: z.string(), sources: z.array(source), sessionId: z.string() }),
  readOnly: true,
  async run(args, ctx) {
    const resolution = await resolve(ctx, args.repositories);
    let step = 0;
    const result = await ctx.services.querySessions.ask(
      commandContextOf(ctx),
      resolution,
      { messages: [{ role: "user", content: args.question }], sessionId: args.sessionId, genius: args.genius },
      (line) => {
        if (line.type === "status" && typeof line.message === "string" && line.message) ctx.progress(line.message, ++step);
      },
    );
    return { answer: result.message, sources: result.sources, sessionId: result.sessionId };
  },
});

export const getQuerySession = defineTool({
  name: "get_query_session",
  title: "A query session",
  description: "The turns of a query session of your organisation, oldest first: each question, its answer and its sources.",
  input: z.strictObject({ sessionId }),
  output: z.object({ session: z.looseObject({ sessionId: z.string(), turns: z.array(z.unknown()) }) }),
  readOnly: true,
  async run(args, ctx) {
    const session = await ctx.services.querySessions.get(ctx.principal.orgId, args.sessionId);
    if (!session) throw new DomainError("not_found", `Query session ${args.sessionId} not found`);
    return { session };
  },
});
