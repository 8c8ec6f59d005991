import { ConfigError, loadConfig } from "./config.ts";
import { createLoupe } from "./loupe.ts";
import { DataDirLockedError, DataDirNotWritableError } from "./data-dir-lock.ts";
import { serve } from "./serve.ts";

/** Entry point on Node (tsx) and Deno: load config, compose, serve, shut down cleanly on signals. */
async function main() {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(error.message + "\n");
      process.exit(2);
    }
    throw error;
  }
  let loupe;
  try {
    loupe = await createLoupe(config);
  } catch (error) {
    // A setting only the stores can check (LOUPE_WEBHOOK_ORG naming an organisation that does not exist).
    if (error instanceof ConfigError) {
      process.stderr.write(error.message + "\n");
      process.exit(2);
    }
    if (error instanceof DataDirLockedError) {
      process.stderr.write(`${error.message}\nOne Loupe process at a time may use a data directory: stop that one, or give this one another LOUPE_DATA_DIR.\n`);
      process.exit(1);
    }
    if (error instanceof DataDirNotWritableError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const server = await serve(loupe.fetch, { port: config.port, hostname: config.host });
  // One log line (JSON for shippers, or a pretty line on a terminal): stdout carries nothing but the logs.
  const url = `http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${server.port}`;
  loupe.dataDirLock.setUrl(url);
  loupe.services.logger.info({ port: server.port, host: config.host, url }, `Loupe is listening on ${url}`);

  // Graceful shutdown: stop accepting connections and let in-flight requests finish (up to
  // LOUPE_SHUTDOWN_TIMEOUT_MS), then loupe.close(): the indexer stops its jobs between batches (a
  // restart resumes them from the recorded batches), the projection runner stops, the stores close.
  // Exit 0 when all of that completed in time; a second signal, or the deadline, exits 1 at once.
  let stopping = false;
  const shutdown = async (signal: string) => {
    const { logger } = loupe.services;
    if (stopping) {
      logger.warn({ signal }, "second signal: exiting without waiting");
      process.exit(1);
    }
    stopping = true;
    const started = Date.now();
    logger.info({ signal, timeoutMs: config.shutdownTimeoutMs }, "shutting down");
    const deadline = setTimeout(() => {
      logger.error({ timeoutMs: config.shutdownTimeoutMs }, "shutdown did not finish in time; exiting");
      process.exit(1);
    }, config.shutdownTimeoutMs + 5_000);
    deadline.unref?.();
    await server.close({ graceMs: config.shutdownTimeoutMs });
    logger.info({ ms: Date.now() - started }, "stopped accepting requests; stopping work and closing stores");
    await loupe.close();
    logger.info({ ms: Date.now() - started }, "shutdown complete");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((error) => {
  process.stderr.write(`Loupe failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
