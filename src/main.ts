import { ConfigError, loadConfig } from "./config.ts";
import { createLoupe } from "./loupe.ts";
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
  const loupe = await createLoupe(config);
  const server = await serve(loupe.fetch, { port: config.port, hostname: config.host });
  loupe.services.logger.info({ port: server.port, host: config.host }, "Loupe is listening");
  process.stdout.write(`Loupe listening on http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${server.port}\n`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    loupe.services.logger.info({ signal }, "shutting down");
    await server.close();
    await loupe.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((error) => {
  process.stderr.write(`Loupe failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
