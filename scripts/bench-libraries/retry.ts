/**
 * Retry and backoff (`postJson` of src/models/http.ts) against p-retry around a plain fetch, on a local
 * server that answers as a rate-limited provider does: which statuses are retried, how long the client
 * waits after a 429 that names its delay (`retry-after-ms`), and how fast an abort during the wait ends
 * the call. p-retry's delay is its own backoff (`minTimeout`, `factor`, `randomize`); a server's delay
 * can only be slept in `onFailedAttempt`, on top of it.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import pRetry, { AbortError } from "p-retry";
import { postJson, retryPolicy } from "../../src/models/http.ts";
import { median } from "./timing.ts";

const KEY = "sk-bench-secret-key";
const RETRY_AFTER_MS = 400;
const BASE_DELAY_MS = 100;

type Script = number[]; // statuses to answer, in order; 200 after the list

function serve(): Promise<{ server: Server; url: string; script(statuses: Script): void; hits(): number }> {
  let queue: Script = [];
  let count = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      count++;
      const status = queue.shift() ?? 200;
      res.writeHead(status, { "content-type": "application/json", ...(status === 429 ? { "retry-after-ms": String(RETRY_AFTER_MS) } : {}) });
      res.end(JSON.stringify(status === 200 ? { ok: true } : { error: { message: `status ${status} for key ${KEY}` } }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/x`,
        script: (statuses) => {
          queue = [...statuses];
          count = 0;
        },
        hits: () => count,
      }),
    ),
  );
}

class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly retryAfterMs: number | null,
  ) {
    super(`HTTP ${status}`);
  }
}

type Call = (url: string, signal?: AbortSignal) => Promise<unknown>;

const own: Call = (url, signal) =>
  postJson({ label: "bench", url, headers: { authorization: `Bearer ${KEY}` }, secrets: [KEY], timeoutMs: 5000, retry: retryPolicy({ baseDelayMs: BASE_DELAY_MS, maxRetries: 3 }) }, {}, signal);

const library: Call = (url, signal) =>
  pRetry(
    async () => {
      const res = await fetch(url, { method: "POST", body: "{}", headers: { authorization: `Bearer ${KEY}` }, signal });
      if (res.ok) return res.json();
      const after = res.headers.get("retry-after-ms");
      const error = new HttpStatusError(res.status, after === null ? null : Number(after));
      if (res.status !== 429 && res.status < 500) throw new AbortError(error); // not retried
      throw error;
    },
    {
      retries: 3,
      minTimeout: BASE_DELAY_MS,
      factor: 2,
      randomize: true,
      signal,
      // The server's delay, slept before p-retry's own backoff (there is no way to replace the backoff).
      onFailedAttempt: async ({ error }) => {
        const after = error instanceof HttpStatusError ? error.retryAfterMs : null;
        if (after === null) return;
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, after);
          signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
        });
      },
    },
  );

async function scenario(server: Awaited<ReturnType<typeof serve>>, call: Call) {
  const timed = async (statuses: Script) => {
    const ms: number[] = [];
    for (let i = 0; i < 5; i++) {
      server.script(statuses);
      const start = performance.now();
      await call(server.url);
      ms.push(performance.now() - start);
    }
    return median(ms);
  };
  const plainMs = await timed([]);
  // The wait the client added after the 429 (the time of a plain call taken off), median of 5.
  const waitAfter429Ms = Math.round((await timed([429])) - plainMs);

  server.script([400]);
  const badRequest = await call(server.url).then(
    () => "resolved",
    (e: unknown) => (e instanceof Error ? e.message : String(e)),
  );
  const attemptsOn400 = server.hits();

  server.script([503, 503]);
  await call(server.url);
  const attemptsOn503Twice = server.hits();

  server.script([429, 429, 429, 429, 429]);
  const ctl = new AbortController();
  const pending = call(server.url, ctl.signal).catch(() => undefined);
  await new Promise((r) => setTimeout(r, 50));
  const t = performance.now();
  ctl.abort(new Error("caller gone"));
  await pending;
  const abortToRejectMs = Math.round(performance.now() - t);

  return { waitAfter429Ms, attemptsOn400, attemptsOn503Twice, keyInErrorOn400: badRequest.includes(KEY), abortToRejectMs };
}

export async function benchRetry() {
  const server = await serve();
  try {
    return {
      input: `a 429 naming retry-after-ms ${RETRY_AFTER_MS}, backoff base ${BASE_DELAY_MS} ms (own: [d/2, d]; p-retry randomize: [d, 2d])`,
      postJson: await scenario(server, own),
      "p-retry": await scenario(server, library),
    };
  } finally {
    server.server.close();
  }
}
