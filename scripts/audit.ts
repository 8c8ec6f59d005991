/**
 * The history of an entity from the event log, as JSON on stdout: every event that touched it (by
 * stream, or by the id in event data), who and when, in order. Key hashes and secrets are redacted.
 * Opens the event log of the data dir directly, under the data directory's lock: while a server runs
 * on it, refuses (exit 3) and points to the server's GraphQL query entityHistory instead.
 *
 *   npm run audit -- --entity <id> [--data-dir ./data] [--org <orgId>] [--limit 10000]
 */
import { parseArgs } from "node:util";
import { ConfigError } from "../src/config.ts";
import { openEventStore } from "../src/eventstore/open.ts";
import { catalogue } from "../src/features/catalogue.ts";
import { entityHistory } from "../src/audit/history.ts";
import { fail, printableEvent, scriptConfig, withDataDirLock } from "./cli-support.ts";

const USAGE = "usage: npm run audit -- --entity <id> [--data-dir ./data] [--org <orgId>] [--limit 10000]";

async function main() {
  let args;
  try {
    args = parseArgs({
      options: {
        entity: { type: "string" },
        "data-dir": { type: "string" },
        org: { type: "string" },
        limit: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (error) {
    fail((error as Error).message, USAGE);
  }
  if (args.help) {
    process.stdout.write(USAGE + "\n");
    return;
  }
  if (!args.entity) fail("--entity is required", USAGE);
  const limit = args.limit === undefined ? 10_000 : Number(args.limit);
  if (!Number.isInteger(limit) || limit < 1) fail("--limit must be a positive integer", USAGE);

  const config = scriptConfig(args["data-dir"]);
  const entity = args.entity;
  await withDataDirLock(config, "audit", "ask the server: GraphQL query entityHistory(entityId)", async () => {
    const eventStore = await openEventStore(config, catalogue);
    try {
      const history = await entityHistory(eventStore, entity, { orgId: args.org, limit });
      process.stdout.write(JSON.stringify({ ...history, events: history.events.map(printableEvent) }, null, 2) + "\n");
    } finally {
      await eventStore.close();
    }
  });
}

main().catch((error) => {
  if (error instanceof ConfigError) fail(error.message, USAGE);
  process.stderr.write(`audit failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
