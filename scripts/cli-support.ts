import { resolve } from "node:path";
import { loadConfig, type Config } from "../src/config.ts";
import type { StoredEvent } from "../src/eventstore/port.ts";
import { redact } from "../src/audit/redact.ts";
import { DataDirLockedError, DataDirNotWritableError, lockAdvice, lockDataDir } from "../src/data-dir-lock.ts";

/**
 * Runs a maintenance script's work holding the data directory's lock (src/data-dir-lock.ts). While a
 * server (or another script) holds it, prints who does and what to do `instead`, and exits 3 having
 * changed nothing.
 */
export async function withDataDirLock<T>(config: Config, role: string, instead: string, fn: () => Promise<T>): Promise<T> {
  let lock;
  try {
    lock = await lockDataDir(config.dataDir, role);
  } catch (error) {
    if (error instanceof DataDirNotWritableError) {
      process.stderr.write(`${role}: ${error.message}\n`);
      process.exit(1);
    }
    if (!(error instanceof DataDirLockedError)) throw error;
    process.stderr.write(`${role}: refused. ${lockAdvice(error, instead)}\n`);
    process.exit(3);
  }
  try {
    return await fn();
  } finally {
    await lock.release();
  }
}

/** Config for an operator script: the environment, with `--data-dir` overriding LOUPE_DATA_DIR. */
export function scriptConfig(dataDir: string | undefined): Config {
  const env = { ...process.env };
  if (dataDir) env.LOUPE_DATA_DIR = resolve(dataDir);
  return loadConfig(env);
}

/** An event as the scripts print it: flat metadata, secrets redacted. */
export const printableEvent = (e: StoredEvent) => ({
  position: e.position,
  time: e.time,
  type: e.type,
  schemaVersion: e.schemaVersion,
  streamName: e.streamName,
  streamVersion: e.streamVersion,
  id: e.id,
  orgId: e.metadata.orgId,
  actor: e.metadata.actor,
  correlationId: e.metadata.correlationId,
  causationId: e.metadata.causationId,
  data: redact(e.data),
});

export function fail(message: string, usage: string): never {
  process.stderr.write(`${message}\n\n${usage}\n`);
  process.exit(2);
}
