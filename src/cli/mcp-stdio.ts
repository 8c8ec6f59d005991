/**
 * MCP over stdio for desktop clients, bridged to a running Loupe service: reads newline-delimited
 * JSON-RPC messages from stdin, POSTs each to `<url>/mcp` with the API key, and writes each answer
 * to stdout as one line. stdout carries protocol messages only; diagnostics go to stderr.
 *
 *   node bin/loupe-mcp.js --url http://localhost:8080 --key lp_...
 *   LOUPE_URL=http://localhost:8080 LOUPE_API_KEY=lp_... npm run mcp
 *
 * Requests are forwarded concurrently (answers may come back out of order, as JSON-RPC allows).
 * When the service cannot be reached, each request gets a -32000 error so the client never hangs.
 */
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import process from "node:process";

type Options = { url: string; key: string | undefined; timeoutMs: number };

const USAGE = "usage: loupe-mcp --url <service URL, e.g. http://localhost:8080> [--key <API key>]  (env: LOUPE_URL, LOUPE_API_KEY)";

const log = (line: string) => process.stderr.write(`[loupe-mcp] ${line}\n`);

export function parseOptions(argv: string[], env: Record<string, string | undefined>): Options | string {
  const flags: Record<string, string> = {};
  const { tokens } = parseArgs({
    args: argv,
    options: { url: { type: "string" }, key: { type: "string" }, "timeout-ms": { type: "string" }, help: { type: "boolean", short: "h" } },
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  for (const token of tokens) {
    if (token.kind === "option" && token.name === "help") return USAGE;
    if (token.kind !== "option" || !["url", "key", "timeout-ms"].includes(token.name)) return `unknown argument ${JSON.stringify(argv[token.index])}\n${USAGE}`;
    if (token.value === undefined) return `--${token.name} needs a value\n${USAGE}`;
    flags[token.name] = token.value;
  }
  const base = (flags.url ?? env.LOUPE_URL ?? "").trim();
  if (!base) return `missing --url (or LOUPE_URL)\n${USAGE}`;
  let endpoint: URL;
  try {
    endpoint = new URL(base);
  } catch {
    return `invalid URL ${JSON.stringify(base)}\n${USAGE}`;
  }
  if (!/^https?:$/.test(endpoint.protocol)) return `the URL must be http(s)://\n${USAGE}`;
  const path = endpoint.pathname.replace(/\/+$/, "");
  endpoint.pathname = path.endsWith("/mcp") ? path : `${path}/mcp`;
  const timeoutMs = Number(flags["timeout-ms"] ?? 120_000);
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) return `--timeout-ms must be a positive number\n${USAGE}`;
  return { url: endpoint.toString(), key: flags.key ?? env.LOUPE_API_KEY ?? undefined, timeoutMs };
}

/** Ids of the requests in a message (single or batch), for error answers when the service fails. */
function requestIds(line: string): (string | number)[] {
  try {
    const message: unknown = JSON.parse(line);
    const list = Array.isArray(message) ? message : [message];
    return list.flatMap((m) => {
      const id = (m as { id?: unknown; method?: unknown } | null)?.id;
      return typeof (m as { method?: unknown })?.method === "string" && (typeof id === "string" || typeof id === "number") ? [id] : [];
    });
  } catch {
    return [];
  }
}

/** JSON-RPC messages from an SSE body (`data:` lines), should a service answer with a stream. */
function sseMessages(text: string): unknown[] {
  const out: unknown[] = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((l) => l.startsWith("data:"))
      .map((l) => l.slice(5).trimStart())
      .join("\n");
    if (data) {
      try {
        out.push(JSON.parse(data));
      } catch {
        /* not a message */
      }
    }
  }
  return out;
}

/** Writes each JSON-RPC message of an SSE body as soon as its event is complete; returns how many. */
async function relayEventStream(body: ReadableStream<Uint8Array>, write: (message: unknown) => void): Promise<number> {
  const decoder = new TextDecoder();
  let buffer = "";
  let count = 0;
  const flush = (final: boolean) => {
    const events = buffer.split(/\r?\n\r?\n/);
    buffer = final ? "" : events.pop()!;
    for (const message of sseMessages(events.join("\n\n"))) {
      write(message);
      count++;
    }
  };
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    flush(false);
  }
  buffer += decoder.decode();
  flush(true);
  return count;
}

export async function runBridge(options: Options, input: NodeJS.ReadableStream, write: (line: string) => void) {
  let sessionId: string | undefined;
  const pending = new Set<Promise<void>>();
  const writeMessage = (message: unknown) => write(JSON.stringify(message) + "\n");
  const failAll = (ids: (string | number)[], message: string) => {
    for (const id of ids) writeMessage({ jsonrpc: "2.0", id, error: { code: -32000, message } });
  };

  const forward = async (line: string) => {
    const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    if (sessionId) headers["mcp-session-id"] = sessionId;
    let response: Response;
    try {
      response = await fetch(options.url, { method: "POST", headers, body: line, signal: AbortSignal.timeout(options.timeoutMs) });
    } catch (error) {
      const reason = error instanceof Error && error.name === "TimeoutError" ? "timed out" : "unreachable";
      log(`POST ${options.url} failed: ${error instanceof Error ? error.message : String(error)}`);
      failAll(requestIds(line), `Loupe service ${reason} at ${options.url}`);
      return;
    }
    sessionId = response.headers.get("mcp-session-id") ?? sessionId;
    const type = response.headers.get("content-type") ?? "";
    if (response.ok && type.includes("text/event-stream") && response.body) {
      // Relayed event by event as they come (progress notifications before the answer).
      const relayed = await relayEventStream(response.body, writeMessage);
      if (relayed === 0) failAll(requestIds(line), "Loupe service answered an empty event stream");
      return;
    }
    const text = await response.text().catch(() => "");
    if (response.status === 202 || (response.ok && text.trim() === "")) return;
    let messages: unknown[] | null = null;
    if (type.includes("text/event-stream")) messages = sseMessages(text);
    else {
      try {
        messages = [JSON.parse(text)];
      } catch {
        messages = null;
      }
    }
    // A JSON-RPC answer is relayed whatever the HTTP status; anything else becomes a -32000 per request.
    const isRpc = (m: unknown) => Array.isArray(m) || (typeof m === "object" && m !== null && (m as { jsonrpc?: unknown }).jsonrpc === "2.0");
    if (messages && messages.length > 0 && messages.every(isRpc)) {
      for (const m of messages) writeMessage(m);
      return;
    }
    log(`POST ${options.url} answered HTTP ${response.status} without a JSON-RPC message`);
    failAll(requestIds(line), `Loupe service answered HTTP ${response.status}`);
  };

  const lines = createInterface({ input, crlfDelay: Infinity });
  for await (const raw of lines) {
    const line = raw.trim();
    if (!line) continue;
    const task = forward(line).catch((error: unknown) => {
      log(`unexpected: ${error instanceof Error ? error.message : String(error)}`);
    });
    pending.add(task);
    void task.finally(() => pending.delete(task));
  }
  await Promise.all(pending);
  if (sessionId) {
    const headers: Record<string, string> = { "mcp-session-id": sessionId };
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    await fetch(options.url, { method: "DELETE", headers, signal: AbortSignal.timeout(5_000) }).catch(() => undefined);
  }
}

const isMain = (() => {
  const entry = process.argv[1] ?? "";
  return /mcp-stdio\.ts$/.test(entry) || /loupe-mcp(\.js)?$/.test(entry);
})();

if (isMain) {
  const options = parseOptions(process.argv.slice(2), process.env);
  if (typeof options === "string") {
    log(options);
    process.exit(options === USAGE ? 0 : 2);
  }
  if (!options.key) log("no API key given (--key or LOUPE_API_KEY): only initialize, ping and tools/list will work");
  log(`relaying stdio to ${options.url}`);
  await runBridge(options, process.stdin, (line) => process.stdout.write(line));
}
