/**
 * `POST /mcp`: the tool interface over MCP's streamable HTTP transport, answering with
 * `application/json` (no SSE stream is offered: `GET /mcp` is 405). Outside the /v2 auth middleware:
 * `initialize`, `ping` and `tools/list` need no key; tool calls need `Authorization: Bearer <key>`
 * and fail with -32000 without a valid one. Every JSON-RPC response, errors included, is HTTP 200
 * (so MCP clients surface the JSON-RPC error); notification-only bodies get 202 and no body.
 */
import type { Hono } from "hono";
import type { AppEnv } from "../http/env.ts";
import type { Services } from "../../services.ts";
import { RpcCode } from "./errors.ts";
import { handleJsonRpc, SUPPORTED_PROTOCOL_VERSIONS, type RpcCallContext } from "./server.ts";
import { hostTokenFor } from "../../features/code-search/permissions.ts";
import type { Remote } from "../../hosts/index.ts";

export const MCP_PATH = "/mcp";

/** A single tool call (through tools/call or as a direct method) whose parameters carry `_meta.progressToken`. */
function wantsProgress(body: string): boolean {
  if (!body.includes("progressToken")) return false;
  try {
    const message = JSON.parse(body) as { method?: unknown; params?: { _meta?: { progressToken?: unknown }; arguments?: { _meta?: { progressToken?: unknown } } } };
    const meta = message?.params?._meta ?? message?.params?.arguments?._meta;
    return typeof message?.method === "string" && meta?.progressToken !== undefined;
  } catch {
    return false;
  }
}
const MAX_SESSIONS = 10_000;

export function mcpRoutes(app: Hono<AppEnv>, services: Services) {
  /** Sessions are informational (Loupe keeps no per-session state): unknown or absent ids are accepted. */
  const sessions = new Map<string, { protocolVersion: string; createdAt: number }>();

  app.post(MCP_PATH, async (c) => {
    const version = c.req.header("mcp-protocol-version");
    if (version && !(SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
      return c.json(
        {
          jsonrpc: "2.0",
          id: null,
          error: {
            code: RpcCode.InvalidRequest,
            message: `Unsupported MCP-Protocol-Version: ${version.slice(0, 50)} (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")})`,
          },
        },
        400,
      );
    }
    const body = await c.req.text();
    const ctx: RpcCallContext = {
      authenticate: () => services.keys.authenticate(c.req.header("authorization")),
      services,
      logger: c.get("logger"),
      requestId: c.get("requestId"),
      hostToken: (remote) => hostTokenFor((name) => c.req.header(name), remote as Remote),
      origin: new URL(c.req.url).origin,
    };
    // A tool call that asked for progress, from a client that reads event streams: answered as SSE, the
    // progress notifications first, the response last.
    if (wantsProgress(body) && (c.req.header("accept") ?? "").includes("text/event-stream")) {
      const encoder = new TextEncoder();
      const stream = new ReadableStream<Uint8Array>({
        async start(controller) {
          const send = (message: unknown) => {
            try {
              controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`));
            } catch {
              /* the client went away */
            }
          };
          ctx.notify = send;
          const response = await handleJsonRpc(body, ctx);
          if (response !== null) send(response);
          controller.close();
        },
      });
      return new Response(stream, { status: 200, headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", "x-request-id": c.get("requestId") } });
    }
    const response = await handleJsonRpc(body, ctx);
    if (ctx.initialized) {
      const sessionId = crypto.randomUUID();
      if (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value!);
      sessions.set(sessionId, { protocolVersion: ctx.initialized.protocolVersion, createdAt: Date.now() });
      c.header("mcp-session-id", sessionId);
    }
    if (response === null) return c.body(null, 202);
    return c.json(response, 200);
  });

  app.get(MCP_PATH, (c) => c.body(null, 405, { allow: "POST, DELETE" }));

  app.delete(MCP_PATH, (c) => {
    const sessionId = c.req.header("mcp-session-id");
    if (sessionId) sessions.delete(sessionId);
    return c.body(null, 204);
  });
}
