import type { Hono } from "hono";
import { z } from "zod";
import { commandContext, type AppEnv } from "../env.ts";
import type { Services } from "../../services.ts";
import { HttpError } from "../errors.ts";
import { readJson } from "../validate.ts";
import { requireAdmin } from "../auth.ts";

const issueKeyBody = z.object({
  name: z.string().trim().min(1).max(200),
  role: z.enum(["admin", "member"]).default("member"),
});
const createOrganisationBody = z.object({ name: z.string().trim().min(1).max(200) });
const revokeBody = z.object({ reason: z.string().max(500).optional() }).optional();

/** API keys and organisations. Issuing and revoking are admin-only; secrets are shown once. */
export function keyRoutes(app: Hono<AppEnv>, { keys }: Services) {
  app.get("/v2/me", (c) => {
    const principal = c.get("principal");
    return c.json({ keyId: principal.keyId, orgId: principal.orgId, role: principal.role });
  });

  app.get("/v2/keys", (c) => {
    requireAdmin(c);
    return c.json({ keys: keys.list(c.get("principal").orgId) });
  });

  app.post("/v2/keys", async (c) => {
    requireAdmin(c);
    const body = await readJson(c, issueKeyBody);
    const { key, info } = await keys.issue({ orgId: c.get("principal").orgId, ...body }, commandContext(c.var));
    return c.json({ ...info, key }, 201);
  });

  app.delete("/v2/keys/:keyId", async (c) => {
    requireAdmin(c);
    const keyId = c.req.param("keyId");
    const body = revokeBody.safeParse(c.req.header("content-length") ? await c.req.json().catch(() => undefined) : undefined);
    const orgId = c.get("principal").orgId;
    if (!keys.get(orgId, keyId)) throw new HttpError(404, "not_found", `API key ${keyId} not found`);
    const info = await keys.revoke(orgId, keyId, body.success ? (body.data?.reason ?? null) : null, commandContext(c.var));
    return c.json(info);
  });

  app.post("/v2/organisations", async (c) => {
    requireAdmin(c);
    const body = await readJson(c, createOrganisationBody);
    const context = commandContext(c.var);
    const organisation = await keys.createOrganisation(body.name, context);
    const { key, info } = await keys.issue({ orgId: organisation.orgId, name: `${body.name} admin`, role: "admin" }, context);
    return c.json({ organisation, adminKey: { ...info, key } }, 201);
  });
}
