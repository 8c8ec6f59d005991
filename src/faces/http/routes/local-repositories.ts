import type { Hono } from "hono";
import { z } from "zod";
import { commandContext, type AppEnv } from "../env.ts";
import type { Services } from "../../../services.ts";
import { HttpError } from "../errors.ts";
import { readJson } from "../validate.ts";
import { requireAdmin } from "../auth.ts";
import { describeRoute } from "../route-docs.ts";
import { LocalPathError } from "../../../features/repositories/local.ts";
import { GitNameError } from "../../../git/names.ts";
import { displayRepositoryId, localAlias, parseRepositoryId } from "../../../indexing/repo-id.ts";

const localBody = z.object({
  path: z.string().min(1).max(4096).describe("Absolute path of a git repository's top-level directory on the server, under LOUPE_LOCAL_ROOTS"),
  branch: z.string().trim().min(1).max(255).optional().describe("Default: the repository's checked-out branch"),
  reload: z.boolean().optional(),
});

const submitted = z.object({
  message: z.string(),
  statusEndpoint: z.string().describe("GET this URL for the status"),
  repositoryId: z.string().describe("local:<branch>:<name>-<hash>"),
  repository: z.string().describe("<name>-<hash> (of the `local` remote)"),
  path: z.string().describe("The resolved path"),
});

/**
 * POST /v2/repositories/local: index a git repository on the server's disk by path (admin only; only
 * under LOUPE_LOCAL_ROOTS). Registers it as `local:<branch>:<name>-<hash>` (src/features/repositories/local.ts)
 * and submits it like POST /v2/repositories; follow it with GET /v2/repositories/{repositoryId}.
 */
export function localRepositoryRoutes(app: Hono<AppEnv>, { indexer, localRepositories }: Services) {
  app.post("/v2/repositories/local", async (c) => {
    requireAdmin(c);
    const body = await readJson(c, localBody);
    let local;
    try {
      local = await localRepositories.register(body.path);
    } catch (error) {
      if (error instanceof LocalPathError) throw new HttpError(error.status, error.status === 403 ? "forbidden" : error.status === 404 ? "not_found" : "invalid_request", error.message);
      throw error;
    }
    let result;
    try {
      result = await indexer.submit(
        { orgId: c.get("principal").orgId, remote: local.remote, repository: local.repository, branch: body.branch, reload: body.reload ?? false },
        commandContext(c.var),
      );
    } catch (error) {
      if (error instanceof GitNameError) throw new HttpError(400, "invalid_request", `Invalid request: ${error.field}: ${error.problem}`);
      throw error;
    }
    const parsed = parseRepositoryId(result.repoId)!;
    const id = displayRepositoryId(parsed.remote, parsed.branch, local.repository);
    const statusEndpoint = `${new URL(c.req.url).origin}/v2/repositories/${encodeURIComponent(id)}`;
    return c.json({ message: result.message, statusEndpoint, repositoryId: id, repository: localAlias(local.remote, local.repository) ?? local.repository, path: local.path }, result.started ? 202 : 200);
  });

  describeRoute(app, {
    method: "post",
    path: "/v2/repositories/local",
    summary: "Index a git repository on the server's disk by path (admin; only under LOUPE_LOCAL_ROOTS)",
    description:
      "The path must be the top-level directory of a git repository (or a bare repository) under one of LOUPE_LOCAL_ROOTS, symlinks resolved. Committed content of the branch is indexed. 403 when local indexing is disabled or the path is outside the roots.",
    tags: ["repositories"],
    auth: "admin",
    body: localBody,
    responses: {
      200: { description: "Already up to date", schema: submitted },
      202: { description: "Indexing started", schema: submitted },
      403: { description: "Local indexing disabled, path outside LOUPE_LOCAL_ROOTS, or not an admin key" },
      404: { description: "The path does not exist" },
    },
  });
}
