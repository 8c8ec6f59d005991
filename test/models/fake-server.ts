/** A local HTTP server on 127.0.0.1 and a free port, recording every request it receives. */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type RecordedRequest = {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  at: number;
};

export type Handler = (req: RecordedRequest, res: ServerResponse, raw: IncomingMessage) => void | Promise<void>;

export type FakeServer = {
  url: string;
  requests: RecordedRequest[];
  /** Requests being handled right now, and the most seen at once. */
  inFlight: { now: number; max: number };
  close(): Promise<void>;
};

export async function startServer(handler: Handler): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const inFlight = { now: 0, max: 0 };
  const server = createServer(async (raw, res) => {
    inFlight.now++;
    inFlight.max = Math.max(inFlight.max, inFlight.now);
    let counted = true;
    const done = () => {
      if (counted) inFlight.now--;
      counted = false;
    };
    res.on("close", done);
    const chunks: Buffer[] = [];
    for await (const c of raw) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const rec: RecordedRequest = {
      method: raw.method ?? "",
      path: raw.url ?? "",
      headers: raw.headers,
      body: text === "" ? undefined : JSON.parse(text),
      at: Date.now(),
    };
    requests.push(rec);
    try {
      await handler(rec, res, raw);
    } catch (err) {
      if (!res.headersSent) res.writeHead(599);
      res.end(String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    inFlight,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

export const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Writes `text` as UTF-8 in pieces of `size` bytes (splitting multi-byte characters and "\r\n"),
 * pausing between pieces so each arrives as its own chunk.
 */
export async function writeInPieces(res: ServerResponse, text: string, size: number): Promise<void> {
  const bytes = Buffer.from(text, "utf8");
  for (let i = 0; i < bytes.length; i += size) {
    res.write(bytes.subarray(i, i + size));
    await delay(2);
  }
}

/** A port with nothing listening on it. */
export async function closedPortUrl(): Promise<string> {
  const s = await startServer(() => undefined);
  await s.close();
  return s.url;
}
