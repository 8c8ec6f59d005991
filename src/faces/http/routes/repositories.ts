import type { Hono } from "hono";
import { z } from "zod";
import { commandContext, type AppEnv } from "../env.ts";
import type { Services } from "../../../services.ts";
import { HttpError } from "../errors.ts";
import { readJson } from "../validate.ts";
import { GitNameError } from "../../../git/names.ts";
import { storedRepositoryId } from "../../../indexing/repo-id.ts";
import { repositoryStatus as repositoryBody } from "../../../features/repositories/status.ts";

/** The body of POST /v2/repositories; the console validates its form with it too (the same messages). */
export const submitBody = z.object({
  remote: z.preprocess(
    (v) => (typeof v === "string" ? v.trim().toLowerCase() : v),
    z.enum(["github", "gitlab", "bitbucket", "azure"], { error: "must be one of github, gitlab, bitbucket, azure" }),
  ),
  // Each check names its own problem: a schema-level `error` would also replace the length messages.
  repository: z
    .string({ error: "must be a string of the form owner/repo" })
    .trim()
    .min(1, "must not be empty")
    .max(300, "is too long (max 300 characters)"),
  branch: z.string().trim().max(255, "is too long (max 255 characters)").nullish().transform((v) => (v ? v : undefined)),
  reload: z.boolean().optional(),
  notify: z.boolean().optional(),
});

/** The host token: the provider-named header for the remote first, then the generic ones. */
function hostToken(header: (name: string) => string | undefined, remote: string): string | undefined {
  const named = { github: "x-github-token", gitlab: "x-gitlab-token", bitbucket: "x-bitbucket-token", azure: "x-azure-token" }[remote];
  for (const name of [named, "x-host-token", "x-github-token", "x-gitlab-token", "x-bitbucket-token", "x-azure-token"]) {
    const value = name ? header(name)?.trim() : undefined;
    if (value) return value.replace(/^(bearer|token)\s+/i, "");
  }
  return undefined;
}


/** POST /v2/repositories (submit for indexing) and GET /v2/repositories/{id} (status). */
export function repositoryRoutes(app: Hono<AppEnv>, { indexer }: Services) {
  app.post("/v2/repositories", async (c) => {
    const body = await readJson(c, submitBody);
    const principal = c.get("principal");
    let result;
    try {
      result = await indexer.submit(
        {
          orgId: principal.orgId,
          remote: body.remote,
          repository: body.repository,
          branch: body.branch,
          reload: body.reload ?? false,
          notify: body.notify ?? false,
          hostToken: hostToken((n) => c.req.header(n), body.remote),
        },
        commandContext(c.var),
      );
    } catch (error) {
      if (error instanceof GitNameError) {
        throw new HttpError(400, "invalid_request", `Invalid request: ${error.field}: ${error.problem}`, [{ field: error.field, message: error.problem }]);
      }
      throw error;
    }
    const origin = new URL(c.req.url).origin;
    const statusEndpoint = `${origin}/v2/repositories/${encodeURIComponent(result.repoId)}`;
    return c.json({ message: result.message, statusEndpoint }, result.started ? 202 : 200);
  });

  app.get("/v2/repositories", (c) => {
    return c.json({ repositories: indexer.list(c.get("principal").orgId).map(repositoryBody) });
  });

  app.get("/v2/repositories/:repositoryId{.+}", (c) => {
    const raw = c.req.param("repositoryId");
    let decoded = raw;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      /* already decoded */
    }
    const repoId = storedRepositoryId(decoded.trim());
    const notFound = () => new HttpError(404, "not_found", "Repository or branch not found, or your token cannot read it");
    if (repoId === null) throw notFound();
    const record = indexer.get(c.get("principal").orgId, repoId);
    if (!record) throw notFound();
    return c.json(repositoryBody(record));
  });
}
