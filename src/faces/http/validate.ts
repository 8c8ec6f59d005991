import type { Context } from "hono";
import type { z } from "zod";
import { HttpError } from "./errors.ts";
import { fieldNestingTooDeep, tooDeepMessage } from "../../json-bounds.ts";

/** Field-level problems from a zod error, e.g. [{ field: "repositories.0.remote", message: "..." }]. */
export function zodIssues(error: z.ZodError) {
  return error.issues.map((issue) => ({
    field: issue.path.map(String).join(".") || "(body)",
    message: issue.message,
  }));
}

export function describeIssues(issues: { field: string; message: string }[]) {
  return issues.map((i) => `${i.field}: ${i.message}`).join("; ");
}

/**
 * Reads and validates a JSON body; malformed JSON and invalid fields become 400s naming the problem.
 * A field nested deeper than any request needs is refused before the schema looks at it (json-bounds.ts).
 */
export async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  let body: unknown;
  const text = await c.req.text();
  try {
    body = text.length === 0 ? {} : JSON.parse(text);
  } catch {
    throw new HttpError(400, "invalid_json", "The request body is not valid JSON");
  }
  const deep = fieldNestingTooDeep(body);
  if (deep !== null) {
    const issues = [{ field: deep, message: tooDeepMessage() }];
    throw new HttpError(400, "invalid_request", `Invalid request: ${describeIssues(issues)}`, issues);
  }
  return parseWith(schema, body, "invalid_request");
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown, code = "invalid_request"): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = zodIssues(parsed.error);
    throw new HttpError(400, code, `Invalid request: ${describeIssues(issues)}`, issues);
  }
  return parsed.data;
}
