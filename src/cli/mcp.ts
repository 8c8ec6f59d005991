import { CliError, errorFor, type Client } from "./client.ts";

/**
 * A minimal MCP client over streamable HTTP (JSON-RPC 2.0 POSTs to /mcp; answers as JSON or as an SSE
 * stream): initialize, then tools/call. Enough for the CLI to call the service's tools.
 */
export function createMcpClient(client: Client, path = "/mcp") {
  let session: string | undefined;
  let initialised = false;
  let nextId = 1;

  async function rpc(method: string, params: unknown, notification = false): Promise<unknown> {
    const id = nextId++;
    const headers: Record<string, string> = { accept: "application/json, text/event-stream" };
    if (session) headers["mcp-session-id"] = session;
    const response = await client.send("POST", path, { json: { jsonrpc: "2.0", ...(notification ? {} : { id }), method, params }, headers });
    if (response.status === 404 && (await response.clone().text()).includes("No route")) {
      throw new CliError(`this Loupe server has no tool endpoint at ${path}`);
    }
    const sessionHeader = response.headers.get("mcp-session-id");
    if (sessionHeader) session = sessionHeader;
    if (notification) return undefined;
    const type = response.headers.get("content-type") ?? "";
    const text = await response.text();
    const messages: { id?: unknown; result?: unknown; error?: { code: number; message: string } }[] = [];
    const parse = (s: string) => {
      try {
        const value = JSON.parse(s);
        for (const m of Array.isArray(value) ? value : [value]) messages.push(m);
      } catch {
        // not JSON
      }
    };
    if (type.includes("event-stream")) {
      for (const line of text.split(/\r?\n/)) if (line.startsWith("data:")) parse(line.slice(5).trim());
    } else parse(text);
    const reply = messages.find((m) => m.id === id) ?? messages[0];
    if (!reply) {
      if (!response.ok) throw await errorFor(new Response(text, { status: response.status }), `${method}`);
      throw new CliError(`unexpected answer from ${path} to ${method} (HTTP ${response.status})`);
    }
    if (reply.error) {
      const message = reply.error.message;
      if (response.status === 401 || /unauthori[sz]ed|api key/i.test(message)) throw new CliError(`authentication failed: ${message} (check --key or LOUPE_API_KEY)`);
      throw new CliError(message);
    }
    return reply.result;
  }

  async function initialise() {
    if (initialised) return;
    await rpc("initialize", { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "loupe-cli", version: "0.1.0" } });
    await rpc("notifications/initialized", {}, true);
    initialised = true;
  }

  return {
    /** Calls a tool; returns its JSON result (structuredContent, or the text content parsed as JSON). */
    async callTool<T>(name: string, args: Record<string, unknown>): Promise<T> {
      await initialise();
      const result = (await rpc("tools/call", { name, arguments: args })) as {
        content?: { type: string; text?: string }[];
        structuredContent?: unknown;
        isError?: boolean;
      };
      const text = result?.content?.find((c) => c.type === "text")?.text;
      if (result?.isError) throw new CliError(`${name} failed: ${text ?? "tool error"}`);
      if (result?.structuredContent !== undefined) return result.structuredContent as T;
      if (text === undefined) return result as T;
      try {
        return JSON.parse(text) as T;
      } catch {
        return text as T;
      }
    },
  };
}
