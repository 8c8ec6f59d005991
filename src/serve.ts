/** Serves a fetch handler on Deno (Deno.serve) or Node (@hono/node-server): same app, two runtimes. */
export type Served = {
  port: number;
  /**
   * Stops accepting connections. Without `graceMs` open connections are cut at once; with it,
   * in-flight requests (streams included) get up to `graceMs` to finish before they are cut.
   */
  close(options?: { graceMs?: number }): Promise<void>;
};

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
        close: ({ graceMs = 0 } = {}) =>
          new Promise<void>((done) => {
            const http = server as unknown as { closeAllConnections?: () => void; closeIdleConnections?: () => void };
            let timer: ReturnType<typeof setTimeout> | undefined;
            server.close(() => {
              if (timer) clearTimeout(timer);
              done();
            });
            if (graceMs <= 0) http.closeAllConnections?.();
            else {
              http.closeIdleConnections?.();
              timer = setTimeout(() => http.closeAllConnections?.(), graceMs);
            }
          }),
      });
    });
  });
}
