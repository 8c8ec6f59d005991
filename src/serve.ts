/** Serves a fetch handler on Deno (Deno.serve) or Node (@hono/node-server): same app, two runtimes. */
export type Served = { port: number; close(): Promise<void> };

type FetchHandler = (request: Request) => Response | Promise<Response>;

declare const Deno: {
  serve(
    options: { port: number; hostname: string; onListen?: (addr: { port: number }) => void },
    handler: FetchHandler,
  ): { finished: Promise<void>; shutdown(): Promise<void>; addr: { port: number } };
};

export async function serve(fetch: FetchHandler, { port, hostname }: { port: number; hostname: string }): Promise<Served> {
  if ("Deno" in globalThis) {
    const server = Deno.serve({ port, hostname, onListen: () => {} }, fetch);
    return { port: server.addr.port, close: () => server.shutdown() };
  }
  const { serve: nodeServe } = await import("@hono/node-server");
  return new Promise((resolve) => {
    const server = nodeServe({ fetch, port, hostname }, (info) => {
      resolve({
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
          }),
      });
    });
  });
}
