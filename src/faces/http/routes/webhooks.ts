import type { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import type { Services } from "../../../services.ts";
import { z } from "zod";
import { HttpError } from "../errors.ts";
import { describeIssues, parseWith } from "../validate.ts";
import { InvalidEventError } from "../../../eventstore/catalogue.ts";
import { isRemote } from "../../../hosts/index.ts";
import { WebhookPayloadError } from "../../../hosts/errors.ts";

const FORM = "application/x-www-form-urlencoded";
const formSchema = z.object({ payload: z.string({ error: "required: the form's payload field carries the delivery's JSON" }) });

/**
 * The delivery's JSON, after its signature was checked over the raw bytes. GitHub's default content
 * type is a form (`payload=<urlencoded JSON>`, "Content type: application/x-www-form-urlencoded" in a
 * webhook's settings): its `payload` field is the JSON. Anything else is the JSON itself.
 */
function parseWebhookBody(contentType: string | undefined, raw: Uint8Array): unknown {
  const text = new TextDecoder().decode(raw);
  const form = contentType?.split(";")[0]!.trim().toLowerCase() === FORM;
  const json = form ? parseWith(formSchema, Object.fromEntries(new URLSearchParams(text))).payload : text;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    throw new HttpError(400, "invalid_json", form ? "The webhook's payload field is not valid JSON" : "The webhook body is not valid JSON");
  }
}

/**
 * What is wrong with a delivery the service refused as unusable (`{ field, message }` each, like every
 * 400 of the API), or null for any other error. The host names the payload's fields; an event the
 * catalogue refuses (a value over an event's bounds, such as a 20,000-character title) names the
 * recorded event's field.
 */
function refusedDelivery(error: unknown): { field: string; message: string }[] | null {
  if (error instanceof WebhookPayloadError) return error.issues.map((i) => ({ field: i.field, message: i.problem }));
  if (error instanceof InvalidEventError) return error.issues.map((i) => ({ field: `${error.eventType}.${i.path}`, message: i.message }));
  return null;
}

/**
 * `POST /webhooks/{github|gitlab|bitbucket|azure}`: outside /v2, authenticated by the host's
 * signature (GitHub/Bitbucket HMAC-SHA256 of the raw body, GitLab X-Gitlab-Token, Azure Basic auth)
 * against LOUPE_WEBHOOK_SECRET_<HOST>, compared in constant time. Unsigned, wrongly signed, or a
 * host without a configured secret: 401. The body is JSON, or a form whose `payload` field is the JSON
 * (GitHub's default content type). Answers 200 with `{ outcome: recorded|duplicate|ignored }`.
 */
export function webhookRoutes(app: Hono<AppEnv>, services: Services) {
  app.post("/webhooks/:host", async (c) => {
    const remote = c.req.param("host").toLowerCase();
    if (!isRemote(remote)) throw new HttpError(404, "not_found", `Unknown webhook host ${remote.slice(0, 50)}`);
    const raw = new Uint8Array(await c.req.arrayBuffer());
    const secret = services.config.webhooks.secrets[remote];
    const headers = c.req.raw.headers;
    if (!secret || !services.hosts.get(remote).verifyWebhook(headers, raw, secret)) {
      c.get("logger").warn({ remote }, "webhook refused: missing or invalid signature");
      throw new HttpError(401, "unauthorized", "Missing or invalid webhook signature");
    }
    const body = parseWebhookBody(c.req.header("content-type"), raw);
    const orgId = services.pullRequests.webhookOrg();
    if (!orgId) throw new HttpError(503, "unavailable", "No organisation to record webhooks into");
    let result;
    try {
      result = await services.pullRequests.recordWebhook(orgId, remote, headers, body);
    } catch (error) {
      const issues = refusedDelivery(error);
      if (!issues) throw error;
      // The sender's mistake, not ours: a warning without a stack, and nothing recorded.
      c.get("logger").warn({ remote, field: issues[0]!.field, issues }, "webhook refused: unusable delivery");
      throw new HttpError(400, "invalid_request", `Invalid webhook delivery: ${describeIssues(issues)}`, issues);
    }
    c.get("logger").info({ remote, outcome: result.outcome, deliveryId: result.deliveryId }, "webhook");
    return c.json(result, 200);
  });
}
