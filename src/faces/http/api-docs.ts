import { z } from "zod";
import type { RouteDoc } from "./route-docs.ts";

/**
 * OpenAPI declarations of routes whose modules do not declare themselves with `describeRoute` (yet).
 * An entry is used only when the app serves that method and path, so the document never lists a
 * route that is not mounted. A route module that declares itself overrides the entry here.
 * Schemas follow ../shared/spec (interface.md, wire-facts.md; relative to the project root) and the route modules' zod schemas.
 */
const remote = z.enum(["github", "gitlab", "bitbucket", "azure"]);
const repositoryStatus = z
  .object({
    repository: z.string(),
    remote: z.string(),
    branch: z.string(),
    private: z.boolean().nullable(),
    status: z.enum(["submitted", "queued", "cloning", "processing", "completed", "failed"]),
    filesProcessed: z.number().int(),
    numFiles: z.number().int(),
    sampleQuestions: z.array(z.string()),
    sha: z.string().nullable(),
    id: z.string().describe("remote:branch:owner/repo"),
    failureReason: z.string().nullable(),
  })
  .passthrough()
  .meta({ id: "RepositoryStatus" });
const submitted = z.object({ message: z.string(), statusEndpoint: z.string() });
const reviewTrigger = z.object({
  remote,
  name: z.string().describe("owner/repo"),
  defaultBranch: z.string(),
  prNumber: z.number().int().nonnegative(),
  branch: z.string().optional(),
  strictness: z.number().int().min(1).max(5).optional(),
});
const jsonRpc = { contentType: "application/json", schema: { type: "object", description: "JSON-RPC 2.0 request or batch" } };
const anyJson = z.record(z.string(), z.unknown());

export const routeCatalogue: RouteDoc[] = [
  {
    method: "post",
    path: "/v2/repositories",
    summary: "Submit a repository for indexing",
    tags: ["repositories"],
    hostToken: true,
    body: z.object({
      remote,
      repository: z.string().describe("owner/repo"),
      branch: z.string().optional().describe("Default: the repository's default branch"),
      reload: z.boolean().optional().describe("Force a re-index"),
      notify: z.boolean().optional(),
    }),
    responses: {
      200: { description: "Repository is up to date", schema: submitted },
      202: { description: "Indexing (or re-indexing) started", schema: submitted },
    },
  },
  {
    method: "get",
    path: "/v2/repositories",
    summary: "List the organisation's repositories and their indexing status",
    tags: ["repositories"],
    responses: { 200: { description: "Repositories", schema: z.object({ repositories: z.array(repositoryStatus) }) } },
  },
  {
    method: "get",
    path: "/v2/repositories/:repositoryId{.+}",
    summary: "Indexing status of one repository",
    tags: ["repositories"],
    params: { repositoryId: "remote:branch:owner/repo, URL-encoded" },
    responses: {
      200: { description: "Status; draw progress from filesProcessed / numFiles", schema: repositoryStatus },
      404: { description: "Repository or branch not found, or your token cannot read it" },
    },
  },
  {
    method: "post",
    path: "/v2/repositories/pull-requests/backfill",
    summary: "Record a repository's pull requests from the host API (admin)",
    description:
      "Lists with the request's host token; without one, the service token serves only the bootstrap and webhook organisations, any other organisation lists a public repository anonymously, and gets 400 host_token_required for any other one (429 host_rate_limited when the host refuses the anonymous question for its rate limit).",
    tags: ["pull requests"],
    auth: "admin",
    hostToken: true,
    body: z.object({
      remote,
      repository: z.string().optional(),
      name: z.string().optional().describe("Alias of repository"),
      defaultBranch: z.string().optional(),
      state: z.enum(["all", "open"]).optional(),
      limit: z.number().int().positive().max(10_000).optional(),
    }),
    responses: {
      200: { description: "Counts", schema: z.object({ listed: z.number(), recorded: z.number(), unchanged: z.number() }).passthrough() },
      400: { description: "Invalid body, or host_token_required: this organisation must send X-Host-Token" },
      429: { description: "host_rate_limited: the host refused a call for its rate limit (anonymous callers have the lowest); try again later or send X-Host-Token" },
    },
  },
  {
    method: "post",
    path: "/v2/code-reviews",
    summary: "Trigger a code review of a pull request",
    description:
      "The review fetches with the request's host token (kept in memory for the review only); without one, the service token serves only the bootstrap and webhook organisations, any other organisation's review of a public repository fetches anonymously, and it gets 400 host_token_required for any other one (429 host_rate_limited when the host refuses the anonymous question for its rate limit).",
    tags: ["reviews"],
    hostToken: true,
    body: reviewTrigger,
    responses: {
      202: { description: "Review created (PENDING)", schema: z.object({ codeReviewId: z.string(), status: z.string(), message: z.string() }) },
      400: { description: "Invalid body, or host_token_required: this organisation must send X-Host-Token" },
      429: { description: "host_rate_limited: the host refused a call for its rate limit (anonymous callers have the lowest); try again later or send X-Host-Token" },
    },
  },
  {
    method: "get",
    path: "/v2/code-reviews/:id",
    summary: "A code review and its status",
    tags: ["reviews"],
    params: { id: "Code review id" },
    responses: { 200: { description: "The review", schema: z.object({ codeReview: anyJson }) }, 404: { description: "No such review" } },
  },
  {
    method: "post",
    path: "/v2/custom-context",
    summary: "Create custom context (a coding pattern or instruction)",
    tags: ["custom context"],
    body: z.object({
      body: z.string().optional(),
      type: z.string().optional().describe("CUSTOM_INSTRUCTION or PATTERN"),
      status: z.string().optional().describe("ACTIVE, INACTIVE or SUGGESTED"),
      scopes: z.unknown().optional(),
      metadata: anyJson.optional(),
    }),
    responses: { 201: { description: "Created", schema: z.object({ customContext: anyJson }) } },
  },
  {
    method: "post",
    path: "/v2/custom-context/:id/status",
    summary: "Change the status of custom context (there is no delete: use INACTIVE)",
    tags: ["custom context"],
    params: { id: "Custom context id" },
    body: z.object({ status: z.string() }),
    responses: { 200: { description: "Updated", schema: z.object({ customContext: anyJson }) }, 404: { description: "No such custom context" } },
  },
  {
    method: "post",
    path: "/mcp",
    summary: "Tool interface (MCP, JSON-RPC 2.0 over streamable HTTP)",
    description: "initialize, ping and tools/list need no key; tools/call needs Authorization: Bearer <key> (-32000 otherwise). JSON-RPC errors come with HTTP 200.",
    tags: ["tools"],
    auth: "none",
    rawBody: jsonRpc,
    responses: { 200: { description: "JSON-RPC 2.0 response", rawSchema: { type: "object" } }, 202: { description: "Notifications only: no body" } },
  },
  { method: "get", path: "/mcp", summary: "Not offered (no SSE stream): 405", tags: ["tools"], auth: "none", responses: { 405: { description: "Use POST", rawSchema: {} } } },
  { method: "delete", path: "/mcp", summary: "End an MCP session", tags: ["tools"], auth: "none", responses: { 204: { description: "Ended" } } },
  {
    method: "get",
    path: "/graphql",
    summary: "GraphQL admin API (GET queries) and, for browsers, the GraphiQL console",
    tags: ["admin"],
    responses: { 200: { description: "GraphQL response, or the console page", rawSchema: { type: "object" } } },
  },
  {
    method: "post",
    path: "/graphql",
    summary: "GraphQL admin API (admin key)",
    tags: ["admin"],
    auth: "admin",
    rawBody: { contentType: "application/json", schema: { type: "object", properties: { query: { type: "string" }, variables: { type: "object" }, operationName: { type: "string" } }, required: ["query"] } },
    responses: { 200: { description: "GraphQL response { data, errors }", rawSchema: { type: "object" } } },
  },
  {
    method: "post",
    path: "/webhooks/:host",
    summary: "Git host webhooks (signature-authenticated, not by API key)",
    description: "github: X-Hub-Signature-256; gitlab: X-Gitlab-Token; bitbucket: X-Hub-Signature; azure: Basic auth. 401 without a configured secret or with a bad signature.",
    tags: ["webhooks"],
    auth: "none",
    params: { host: "github, gitlab, bitbucket or azure" },
    rawBody: { contentType: "application/json", schema: { type: "object" } },
    responses: {
      200: { description: "Outcome", schema: z.object({ outcome: z.enum(["recorded", "duplicate", "ignored"]) }).passthrough() },
      401: { description: "Missing or invalid webhook signature" },
    },
  },
];

