import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { loadConfig } from "../../src/config.ts";
import { createLogger } from "../../src/logging.ts";
import { createLoupe, type Loupe } from "../../src/loupe.ts";
import { serve, type Served } from "../../src/serve.ts";

export const TEST_ADMIN_KEY = "lp_test_admin_key_0123456789abcdef";

export type TestServer = {
  baseUrl: string;
  adminKey: string;
  dataDir: string;
  loupe: Loupe;
  /** Every log line the server wrote, as text. */
  logs(): string;
  /** fetch relative to baseUrl with the admin key (override headers as needed). */
  api(path: string, init?: RequestInit & { key?: string | null; json?: unknown }): Promise<Response>;
  /** Stops the server and closes the stores; keeps the data dir unless `remove` is true. */
  stop(options?: { remove?: boolean }): Promise<void>;
};

/**
 * Starts the real service (real stores under a temp data dir, real HTTP server on a free port).
 * Pass `dataDir` to restart on an existing directory.
 */
export async function startTestServer(options: { env?: Record<string, string>; dataDir?: string } = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "loupe-test-"));
  const config = loadConfig({
    LOUPE_DATA_DIR: dataDir,
    LOUPE_API_KEY: TEST_ADMIN_KEY,
    PORT: "0",
    LOUPE_HOST: "127.0.0.1",
    LOUPE_LOG_LEVEL: "info",
    ...options.env,
  });
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const loupe = await createLoupe(config, { logger: createLogger(config.logLevel, sink), adminKeyTo: "terminal", announce: (l) => lines.push(l) });
  const served: Served = await serve(loupe.fetch, { port: 0, hostname: "127.0.0.1" });
  const baseUrl = `http://127.0.0.1:${served.port}`;
  loupe.dataDirLock.setUrl(baseUrl);
  return {
    baseUrl,
    adminKey: config.bootstrapApiKey ?? TEST_ADMIN_KEY,
    dataDir,
    loupe,
    logs: () => lines.join(""),
    api(path, init = {}) {
      const { key, json, ...rest } = init;
      const headers = new Headers(rest.headers);
      const useKey = key === undefined ? (config.bootstrapApiKey ?? TEST_ADMIN_KEY) : key;
      if (useKey !== null && !headers.has("authorization")) headers.set("authorization", `Bearer ${useKey}`);
      if (json !== undefined) {
        headers.set("content-type", "application/json");
        rest.body = JSON.stringify(json);
      }
      return fetch(baseUrl + path, { ...rest, headers });
    },
    async stop({ remove = false } = {}) {
      await served.close();
      await loupe.close();
      if (remove) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
