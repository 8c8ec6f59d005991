/**
 * The real service, in-process (createLoupe + serve on a free port), driven through its public HTTP
 * API only: POST /v2/repositories + GET its status endpoint to index, POST /v2/search to search.
 */
import { Writable } from "node:stream";
import { loadConfig } from "../../src/config.ts";
import { createLogger } from "../../src/logging.ts";
import { createLoupe } from "../../src/loupe.ts";
import { serve } from "../../src/serve.ts";
import type { Case } from "./cases.ts";
import { branchOf } from "./git-host.ts";

const API_KEY = "lp_eval_admin_key_0123456789abcdef";

export type SearchReference = { filepath: string; linestart: number | null; lineend: number | null; distance: number | null };

export type Service = {
  /** The server's base URL, e.g. for webhooks and the MCP endpoint. */
  base: string;
  /** The admin API key the service was started with. */
  apiKey: string;
  api(path: string, body?: unknown): Promise<unknown>;
  search(c: Case): Promise<SearchReference[]>;
  close(): Promise<void>;
};

export async function startService(dataDir: string, hostDir: string, env: Record<string, string> = {}): Promise<Service> {
  // An explicit environment: nothing of the caller's (no models, no host URLs) changes the results.
  const config = loadConfig({ LOUPE_DATA_DIR: dataDir, LOUPE_API_KEY: API_KEY, LOUPE_LOG_LEVEL: "warn", LOUPE_GITHUB_URL: `file://${hostDir}`, PORT: "0", ...env });
  const sink = new Writable({ write: (_c, _e, done) => done() });
  const loupe = await createLoupe(config, { logger: createLogger("warn", sink), announce: () => {} });
  const served = await serve(loupe.fetch, { port: 0, hostname: "127.0.0.1" });
  const base = `http://127.0.0.1:${served.port}`;
  // A connection the server closed while the client reused it (keep-alive, a loaded machine) fails the
  // request before it is sent: such a request is tried again, up to twice.
  const send = async (path: string, init: RequestInit, tries = 3): Promise<Response> => {
    try {
      return await fetch(base + path, init);
    } catch (error) {
      if (tries <= 1 || !(error instanceof TypeError)) throw error;
      await new Promise((r) => setTimeout(r, 200));
      return send(path, init, tries - 1);
    }
  };
  const api = async (path: string, body?: unknown): Promise<unknown> => {
    const res = await send(path, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as unknown;
  };
  return {
    base,
    apiKey: API_KEY,
    api,
    async search(c) {
      const results = (await api("/v2/search", { query: c.problem_statement, repositories: [{ remote: "github", repository: c.repo, branch: branchOf(c) }] })) as SearchReference[];
      return results.map((r) => ({ filepath: r.filepath, linestart: r.linestart, lineend: r.lineend, distance: r.distance }));
    },
    async close() {
      await served.close();
      await loupe.close();
    },
  };
}

export type IndexOutcome = { seconds: number; indexed: number; upToDate: number; failures: Map<string, string> };

type Status = { status: string; failureReason?: string | null; filesProcessed: number; numFiles: number };

/**
 * Indexes every case's branch through the API. Branches of one repository go one after another, in
 * dataset order (the service reuses a file's chunks by path + blob, so each branch only chunks what
 * changed since the earlier ones; two branches of a repository at once would both chunk the same new
 * files); up to `jobs` repositories are indexed at once, the one with the most branches left first.
 */
export async function indexCases(service: Service, cases: readonly Case[], options: { jobs: number; log: (line: string) => void }): Promise<IndexOutcome> {
  const started = performance.now();
  const queues = new Map<string, Case[]>();
  for (const c of cases) queues.set(c.repo, [...(queues.get(c.repo) ?? []), c]);
  const running = new Map<string, { c: Case; path: string; since: number }>(); // by repository
  const failures = new Map<string, string>();
  let indexed = 0;
  let upToDate = 0;
  for (;;) {
    while (running.size < options.jobs) {
      const next = [...queues].filter(([repo, q]) => q.length > 0 && !running.has(repo)).sort((a, b) => b[1].length - a[1].length)[0];
      if (!next) break;
      const c = next[1].shift()!;
      try {
        const submitted = (await service.api("/v2/repositories", { remote: "github", repository: c.repo, branch: branchOf(c) })) as { message: string; statusEndpoint: string };
        if (submitted.message === "Repository is up to date") upToDate++;
        else indexed++;
        running.set(c.repo, { c, path: new URL(submitted.statusEndpoint).pathname, since: performance.now() });
      } catch (error) {
        failures.set(c.instance_id, (error as Error).message);
        options.log(`index ${c.instance_id}: submit failed: ${(error as Error).message}`);
      }
    }
    if (running.size === 0) break;
    let finished = false;
    for (const [repo, job] of running) {
      let status: Status;
      try {
        status = (await service.api(job.path)) as Status;
      } catch (error) {
        status = { status: "failed", failureReason: (error as Error).message, filesProcessed: 0, numFiles: 0 };
      }
      if (status.status !== "completed" && status.status !== "failed") continue;
      running.delete(repo);
      finished = true;
      const seconds = ((performance.now() - job.since) / 1000).toFixed(1);
      if (status.status === "failed") {
        failures.set(job.c.instance_id, status.failureReason ?? "failed");
        options.log(`index ${job.c.instance_id}: FAILED ${status.failureReason ?? ""}`);
      } else options.log(`indexed ${job.c.instance_id} (${branchOf(job.c)}): ${status.numFiles} files, ${seconds}s`);
    }
    if (!finished) await new Promise((r) => setTimeout(r, 100));
  }
  return { seconds: (performance.now() - started) / 1000, indexed, upToDate, failures };
}
