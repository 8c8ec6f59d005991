/**
 * Rebuilds the code index from the event log and the git mirrors (idempotent): every blob named by a
 * RepositoryFilesIndexed event that is missing from the index is re-chunked from its mirror, and each
 * branch's file set is restored from its last completed job. Takes the data directory's lock: with a
 * server running on it, refuses (exit 3) and changes nothing (the embedded index has one writer).
 *
 *   LOUPE_DATA_DIR=./data npx tsx scripts/rebuild-code-index.ts [--truncate]
 */
import { join } from "node:path";
import { loadConfig } from "../src/config.ts";
import { openCodeIndex } from "../src/loupe.ts";
import { openEventStore } from "../src/eventstore/open.ts";
import { catalogue } from "../src/features/catalogue.ts";
import { createGitMirrors } from "../src/git/mirrors.ts";
import { createModelsFromEnv } from "../src/models/config.ts";
import { rebuildCodeIndex } from "../src/features/repositories/rebuild.ts";
import { withDataDirLock } from "./cli-support.ts";

const config = loadConfig(process.env);
await withDataDirLock(config, "rebuild-code-index", "stop the server, then run this again (a server re-chunks missing files itself when it re-indexes)", async () => {
  const eventStore = await openEventStore(config, catalogue);
  const codeIndex = openCodeIndex(config);
  try {
    if (process.argv.includes("--truncate")) await codeIndex.truncate();
    const started = performance.now();
    const report = await rebuildCodeIndex({
      eventStore,
      codeIndex,
      mirrors: createGitMirrors({ rootDir: join(config.dataDir, "mirrors") }),
      embedder: createModelsFromEnv(config.env).embedder,
    });
    console.log(JSON.stringify({ ...report, seconds: +((performance.now() - started) / 1000).toFixed(2) }));
  } finally {
    await codeIndex.close();
    await eventStore.close();
  }
});
