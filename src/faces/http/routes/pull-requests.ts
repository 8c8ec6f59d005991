import type { Hono } from "hono";
import { z } from "zod";
import { commandContext, type AppEnv } from "../env.ts";
import type { Services } from "../../../services.ts";
import { readJson } from "../validate.ts";
import { requireAdmin } from "../auth.ts";
import { customContextBody, customContextMetadata } from "../../../features/custom-context/events.ts";
import { HttpError } from "../errors.ts";
import { GitNameError, validateRepositoryName } from "../../../git/names.ts";
import { hostTokenFor } from "../../../features/code-search/permissions.ts";
import { HostTokenRequiredError } from "../../../features/pull-requests/host-tokens.ts";
import type { Remote } from "../../../hosts/types.ts";

const remote = z.enum(["github", "gitlab", "bitbucket", "azure"]);

const backfillBody = z.object({
  remote,
  /** `owner/repo`; `name` is accepted as an alias. */
  repository: z.string().min(1).max(300).optional(),
  name: z.string().min(1).max(300).optional(),
  defaultBranch: z.string().min(1).max(255).optional(),
  state: z.enum(["all", "open"]).default("all"),
  limit: z.number().int().positive().max(10_000).optional(),
}).refine((b) => b.repository ?? b.name, { message: "repository is required", path: ["repository"] });

const triggerBody = z.object({
  remote,
  name: z.string().min(1).max(300),
  defaultBranch: z.string().min(1).max(255),
  prNumber: z.number().int().nonnegative(),
  branch: z.string().min(1).max(255).optional(),
  strictness: z.number().int().min(1).max(5).optional(),
});

const createContextBody = z.object({
  body: customContextBody.optional(),
  type: z.string().optional(),
  status: z.string().optional(),
  scopes: z.unknown().optional(),
  metadata: customContextMetadata.optional(),
});

/** The caller's host token for `remote` (X-Host-Token or the provider-named header). */
const hostToken = (c: { req: { header(name: string): string | undefined } }, remote: Remote) => hostTokenFor((n) => c.req.header(n), remote);

/** A request that needed a host token and had none it may use: 400 naming the header. */
async function withHostToken<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof HostTokenRequiredError) throw new HttpError(400, "host_token_required", error.message, [{ field: error.field, message: error.message }]);
    throw error;
  }
}

/**
 * Pull request administration over HTTP (the tool interface carries the rest):
 *   POST /v2/repositories/pull-requests/backfill  (admin) {remote, repository, defaultBranch?, state?, limit?}
 *        lists the repository's pull requests through the host API (X-Host-Token; without one, the
 *        service token for the operator's organisations only, else 400 host_token_required) and
 *        records new or changed ones -> {listed, recorded, unchanged}
 *   POST /v2/code-reviews {remote, name, defaultBranch, prNumber, branch?, strictness?} -> {codeReviewId, status, message}
 *        (the review fetches with X-Host-Token, under the same rule)
 *   GET  /v2/code-reviews/:id -> {codeReview}
 *   POST /v2/custom-context {body?, type?, status?, scopes?, metadata?} -> {customContext}
 *   POST /v2/custom-context/:id/status {status} -> {customContext}
 */
export function pullRequestRoutes(app: Hono<AppEnv>, services: Services) {
  app.post("/v2/repositories/pull-requests/backfill", async (c) => {
    requireAdmin(c);
    const body = await readJson(c, backfillBody);
    const name = (body.repository ?? body.name)!;
    try {
      validateRepositoryName(body.remote, name);
    } catch (error) {
      if (error instanceof GitNameError) throw new HttpError(400, "invalid_request", `Invalid request: repository: ${error.problem}`, [{ field: "repository", message: error.problem }]);
      throw error;
    }
    const token = hostToken(c, body.remote);
    const result = await withHostToken(() => services.pullRequests.backfill(
      c.get("principal").orgId,
      {
        remote: body.remote,
        name,
        state: body.state,
        ...(body.defaultBranch ? { defaultBranch: body.defaultBranch } : {}),
        ...(body.limit ? { limit: body.limit } : {}),
        ...(token ? { token } : {}),
      },
      commandContext(c.var),
    ));
    return c.json(result);
  });

  app.post("/v2/code-reviews", async (c) => {
    const body = await readJson(c, triggerBody);
    return c.json(await withHostToken(() => services.reviews.trigger(c.get("principal").orgId, body, commandContext(c.var), { hostToken: hostToken(c, body.remote) })), 202);
  });

  app.get("/v2/code-reviews/:id", (c) => c.json(services.reviews.get(c.get("principal").orgId, c.req.param("id"))));

  app.post("/v2/custom-context", async (c) => {
    const body = await readJson(c, createContextBody);
    return c.json(await services.customContext.create(c.get("principal").orgId, body as Parameters<Services["customContext"]["create"]>[1], commandContext(c.var)), 201);
  });

  app.post("/v2/custom-context/:id/status", async (c) => {
    const body = await readJson(c, z.object({ status: z.string() }));
    return c.json(await services.customContext.setStatus(c.get("principal").orgId, c.req.param("id"), body.status, commandContext(c.var)));
  });
}
