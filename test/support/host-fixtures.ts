/** Webhook fixtures for the host tests: GitHub examples from @octokit/webhooks-examples, others from test/hosts/fixtures. */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

type Definition = { name: string; examples: Record<string, unknown>[] };

const require = createRequire(import.meta.url);
const definitions = require("@octokit/webhooks-examples") as Definition[];

/** A deep copy of the first real GitHub example of `event` with `action` (and an optional filter). */
export function githubExample(
  event: string,
  action: string,
  filter: (example: Record<string, unknown>) => boolean = () => true,
): Record<string, unknown> {
  const def = definitions.find((d) => d.name === event);
  const example = def?.examples.find((e) => e["action"] === action && filter(e));
  if (!example) throw new Error(`no @octokit/webhooks-examples example for ${event}.${action}`);
  return structuredClone(example);
}

export function fixture(path: string): Record<string, unknown> {
  const url = new URL(`../hosts/fixtures/${path}`, import.meta.url);
  return JSON.parse(readFileSync(fileURLToPath(url), "utf8")) as Record<string, unknown>;
}
