/**
 * Replays projections from the event log.
 *
 *   npm run replay -- --all | --projection <name> [--projection <name> ...] [--data-dir ./data]
 *     Rebuilds the projections from zero into a fresh generation of the data dir's read store and
 *     switches to it (the runner's own rebuild). Prints each projection's new status and content hash.
 *
 *   npm run replay -- --as-of <ISO time|position> --projection <name> | --all [--org <orgId>] [--data-dir ./data]
 *     Prints the model(s) as of that point of the log, replayed into a temporary in-memory store
 *     (the data dir is only read). Entries keyed by a secret are dropped, secret fields redacted.
 *
 * Both take the data directory's lock: while a server runs on it, the script refuses (exit 3, nothing
 * changed) and says to use the server's admin API instead (GraphQL `rebuildProjection`, `readModelAsOf`).
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ConfigError } from "../src/config.ts";
import { openEventStore } from "../src/eventstore/open.ts";
import { catalogue } from "../src/features/catalogue.ts";
import { createLmdbReadStore } from "../src/readstore/lmdb.ts";
import { createProjectionRunner } from "../projections/runner.ts";
import { allProjections } from "../src/features/read-models.ts";
import { parseAsOf, replayAsOf } from "../src/audit/as-of.ts";
import { entryBelongsTo, redactEntries } from "../src/audit/redact.ts";
import { fail, scriptConfig, withDataDirLock } from "./cli-support.ts";

const USAGE = `usage:
  npm run replay -- --all | --projection <name>... [--data-dir ./data]
  npm run replay -- --as-of <ISO time|position> --projection <name>... | --all [--org <orgId>] [--data-dir ./data]
projections: ${allProjections.map((p) => p.name).join(", ")}`;

async function main() {
  let args;
  try {
    args = parseArgs({
      options: {
        all: { type: "boolean" },
        projection: { type: "string", multiple: true },
        "as-of": { type: "string" },
        org: { type: "string" },
        "data-dir": { type: "string" },
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
  const names = args.all ? allProjections.map((p) => p.name) : (args.projection ?? []);
  if (names.length === 0) fail("Give --all or --projection <name>", USAGE);
  const unknown = names.filter((n) => !allProjections.some((p) => p.name === n));
  if (unknown.length > 0) fail(`Unknown projection(s): ${unknown.join(", ")}`, USAGE);
  const projections = allProjections.filter((p) => names.includes(p.name));

  const config = scriptConfig(args["data-dir"]);
  const instead = args["as-of"] !== undefined ? "ask the server: GraphQL query readModelAsOf(projection, asOf)" : "ask the server to rebuild: GraphQL mutation rebuildProjection(name)";
  await withDataDirLock(config, "replay", instead, () => run(config, args, projections));
}

async function run(config: ReturnType<typeof scriptConfig>, args: { all?: boolean; "as-of"?: string; org?: string }, projections: typeof allProjections) {
  const eventStore = await openEventStore(config, catalogue);
  try {
    if (args["as-of"] !== undefined) {
      let asOf;
      try {
        asOf = parseAsOf(args["as-of"]);
      } catch (error) {
        fail((error as Error).message, USAGE);
      }
      const replayed = await replayAsOf(eventStore, projections, asOf);
      const models = projections.map((p) => {
        let entries = replayed.store.view(p.name).range<unknown>([]);
        if (args.org) entries = entries.filter((e) => entryBelongsTo(e, args.org!));
        return { projection: p.name, version: p.version, entries: redactEntries(entries) };
      });
      const out = { asOf, position: replayed.position, time: replayed.time, eventsApplied: replayed.eventsApplied };
      process.stdout.write(
        JSON.stringify(models.length === 1 && !args.all ? { ...out, ...models[0] } : { ...out, models }, null, 2) + "\n",
      );
      return;
    }

    const readStore = createLmdbReadStore({ dir: join(config.dataDir, "readmodels") });
    const runner = createProjectionRunner({ eventStore, readStore, projections: allProjections });
    try {
      await runner.start();
      const results = [];
      for (const projection of projections) {
        const started = performance.now();
        await runner.rebuild(projection.name);
        const status = (await runner.status()).find((s) => s.name === projection.name)!;
        results.push({
          projection: projection.name,
          version: status.version,
          generation: status.generation,
          checkpoint: status.checkpoint,
          contentHash: readStore.contentHash(projection.name),
          ms: Math.round(performance.now() - started),
        });
        process.stderr.write(`rebuilt ${projection.name} (generation ${status.generation}, checkpoint ${status.checkpoint})\n`);
      }
      process.stdout.write(JSON.stringify({ rebuilt: results }, null, 2) + "\n");
    } finally {
      await runner.stop();
      await readStore.close();
    }
  } finally {
    await eventStore.close();
  }
}

main().catch((error) => {
  if (error instanceof ConfigError) fail(error.message, USAGE);
  process.stderr.write(`replay failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
