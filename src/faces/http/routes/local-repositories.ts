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
import { submitLocalRepository } from "../../../features/repositories/local-submit.ts";

/** The body of POST /v2/repositories/local; the console validates its form with it too (the same messages). */
export const localBody = z.object({
  path: z.string({ error: "must be a string (an absolute path)" }).min(1, "must not be empty").max(4096, "is too long (max 4096 characters)").describe("Absolute path of a git repository's top-level directory on the server, under LOUPE_LOCAL_ROOTS"),
  branch: z.string().trim().min(1, "must not be empty").max(255, "is too long (max 255 characters)").optional().describe("Default: the repository's checked-out branch"),
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
 * POST /v2/repositories/local: index a git repository on the server's disk by path (admin keys of the
 * bootstrap organisation only, LOUPE_LOCAL_ROOTS being the operator's setting; only under LOUPE_LOCAL_ROOTS). Registers it as `local:<branch>:<name>-<hash>` (src/features/repositories/local.ts)
 * and submits it like POST /v2/repositories; follow it with GET /v2/repositories/{repositoryId}.
 */
export function localRepositoryRoutes(app: Hono<AppEnv>, { indexer, localRepositories }: Services) {
  app.post("/v2/repositories/local", async (c) => {
    requireAdmin(c);
    const body = await readJson(c, localBody);
    let result;
    try {
      result = await submitLocalRepository({ indexer, localRepositories }, { orgId: c.get("principal").orgId, path: body.path, branch: body.branch, reload: body.reload ?? false }, commandContext(c.var));
    } catch (error) {
      if (error instanceof LocalPathError) throw new HttpError(error.status, error.status === 403 ? "forbidden" : error.status === 404 ? "not_found" : "invalid_request", error.message);
      if (error instanceof GitNameError) throw new HttpError(400, "invalid_request", `Invalid request: ${error.field}: ${error.problem}`);
      throw error;
    }
    const statusEndpoint = `${new URL(c.req.url).origin}/v2/repositories/${encodeURIComponent(result.repositoryId)}`;
    return c.json({ message: result.message, statusEndpoint, repositoryId: result.repositoryId, repository: result.repository, path: result.path }, result.started ? 202 : 200);
  });

  describeRoute(app, {
    method: "post",
    path: "/v2/repositories/local",
    summary: "Index a git repository on the server's disk by path (admin of the bootstrap organisation; only under LOUPE_LOCAL_ROOTS)",
    description:
      "The path must be the top-level directory of a git repository (or a bare repository) under one of LOUPE_LOCAL_ROOTS, symlinks resolved. Committed content of the branch is indexed. 403 when local indexing is disabled, the path is outside the roots, or the key is not of the bootstrap organisation (LOUPE_LOCAL_ROOTS is the operator's setting).",
    tags: ["repositories"],
    auth: "admin",
    body: localBody,
    responses: {
      200: { description: "Already up to date", schema: submitted },
      202: { description: "Indexing started", schema: submitted },
      403: { description: "Local indexing disabled, path outside LOUPE_LOCAL_ROOTS, not an admin key, or not the bootstrap organisation's" },
      404: { description: "The path does not exist" },
    },
  });
}
