import type { Hono } from "hono";
import { z } from "zod";
import { commandContext, type AppEnv } from "../env.ts";
import type { Services } from "../../../services.ts";
import { HttpError } from "../errors.ts";
import { readJson } from "../validate.ts";
import { requireAdmin } from "../auth.ts";
import { describeRoute } from "../route-docs.ts";

const issueKeyBody = z.object({
  name: z.string().trim().min(1).max(200),
  role: z.enum(["admin", "member"]).default("member"),
});
const createOrganisationBody = z.object({ name: z.string().trim().min(1).max(200) });
const revokeBody = z.object({ reason: z.string().max(500).optional() }).optional();

const apiKeyInfo = z
  .object({
    keyId: z.string(),
    orgId: z.string(),
    name: z.string(),
    role: z.enum(["admin", "member"]),
    bootstrap: z.boolean(),
    createdAt: z.string().describe("ISO 8601"),
    createdBy: z.string().describe("Key id (or system) that issued it"),
    revokedAt: z.string().nullable(),
  })
  .meta({ id: "ApiKey" });
const issuedKey = apiKeyInfo.extend({ key: z.string().describe("The secret, shown once") }).meta({ id: "IssuedApiKey" });
const organisation = z.object({ orgId: z.string(), name: z.string(), createdAt: z.string() }).meta({ id: "Organisation" });

/** API keys and organisations. Issuing and revoking are admin-only; secrets are shown once. */
export function keyRoutes(app: Hono<AppEnv>, { keys }: Services) {
  const notFound = { description: "No such key in the caller's organisation" };
  describeRoute(app, {
    method: "get",
    path: "/v2/me",
    summary: "The caller's key id, organisation and role",
    tags: ["keys"],
    responses: { 200: { description: "The caller", schema: z.object({ keyId: z.string(), orgId: z.string(), role: z.enum(["admin", "member"]) }) } },
  });
  describeRoute(app, {
    method: "get",
    path: "/v2/keys",
    summary: "List the organisation's API keys (never their secrets)",
    tags: ["keys"],
    auth: "admin",
    responses: { 200: { description: "Keys", schema: z.object({ keys: z.array(apiKeyInfo) }) } },
  });
  describeRoute(app, {
    method: "post",
    path: "/v2/keys",
    summary: "Issue an API key (the secret is returned once)",
    tags: ["keys"],
    auth: "admin",
    body: issueKeyBody,
    responses: { 201: { description: "Issued", schema: issuedKey } },
  });
  describeRoute(app, {
    method: "delete",
    path: "/v2/keys/:keyId",
    summary: "Revoke an API key",
    tags: ["keys"],
    auth: "admin",
    params: { keyId: "Key id (from GET /v2/keys)" },
    responses: { 200: { description: "The revoked key", schema: apiKeyInfo }, 404: notFound },
  });
  describeRoute(app, {
    method: "post",
    path: "/v2/organisations",
    summary: "Create an organisation and its first admin key",
    tags: ["keys"],
    auth: "admin",
    body: createOrganisationBody,
    responses: { 201: { description: "Created", schema: z.object({ organisation, adminKey: issuedKey }) } },
  });

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
    const { organisation, key, info } = await keys.createOrganisationWithAdmin(body.name, commandContext(c.var));
    return c.json({ organisation, adminKey: { ...info, key } }, 201);
  });
}
