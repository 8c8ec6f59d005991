/**
 * The tool interface as a JSON-RPC 2.0 server (jayson) speaking MCP: `initialize`, `ping`,
 * `tools/list`, `tools/call`, `notifications/initialized`, and every tool as a direct method
 * (`{"method":"list_pull_requests","params":{...}}` answers with the tool's response object).
 * Transport-independent: src/faces/mcp/route.ts feeds it HTTP bodies, src/cli/mcp-stdio.ts relays stdio.
 */
import jayson from "jayson";
import { z } from "zod";
import type { Principal } from "../../features/access/service.ts";
import type { Services } from "../../services.ts";
import type { Logger } from "../../logging.ts";
import { DomainError } from "../../eventstore/decider.ts";
import { HostError, hostErrorAnswer } from "../../hosts/errors.ts";
import { fieldNestingTooDeep, tooDeepMessage } from "../../json-bounds.ts";
import { StorageFullError, StorageWriteError } from "../../storage-errors.ts";
import { RpcCode, RpcError, internalError, invalidParams, unauthorized, type ParamIssue, type RpcErrorObject } from "./errors.ts";
import { allTools, toolsByName } from "./tools/index.ts";
import type { ToolDefinition } from "./tools/common.ts";
import pkg from "../../../package.json" with { type: "json" };

/** Protocol revisions Loupe speaks, newest first; an unknown requested revision gets the newest. */
export const SUPPORTED_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;
export const LATEST_PROTOCOL_VERSION = SUPPORTED_PROTOCOL_VERSIONS[0];
export const SERVER_INFO = { name: "loupe", version: pkg.version } as const;

/** Per-call context: who calls (null without a valid key) and what the transport needs back. */
export type RpcCallContext = {
  /** The caller from the request's credentials; null without a valid key. Called only by tool calls. */
  authenticate(): Principal | null;
  services: Services;
  logger: Logger;
  requestId: string;
  /** Set by `initialize`: the transport issues a session id then. */
  initialized?: { protocolVersion: string };
  /** The request's host token for a remote (absent: none). */
  hostToken?: (remote: string) => string | undefined;
  /** The service's base URL as the client reached it. */
  origin?: string;
  /** Sends a `notifications/progress` for `token` (the transport streams it before the answer). */
  notify?: (message: unknown) => void;
};

export type JsonRpcResponse = { jsonrpc: "2.0"; id: string | number | null; result?: unknown; error?: RpcErrorObject };

// ---------------------------------------------------------------- parameter validation

type Issue = ParamIssue;

function issuesOf(error: z.ZodError): Issue[] {
  return error.issues.flatMap((issue): Issue[] => {
    const base = issue.path.map(String).join(".");
    // zod's own message ("Unrecognized key(s): ...") becomes one issue per key; a schema's own message
    // (a scope condition missing its value) is kept as it says more.
    if (issue.code === "unrecognized_keys" && /^Unrecognized keys?:/.test(issue.message)) {
      return issue.keys.map((key) => ({ field: base ? `${base}.${key}` : key, code: issue.code, message: "Unrecognized parameter" }));
    }
    return [{ field: base || "(params)", code: issue.code, message: issue.message }];
  });
}


const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Named parameters only; `_meta` (MCP request metadata) is dropped before validation. */
function namedArguments(value: unknown, what: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) {
    throw invalidParams([{ field: what, code: "invalid_type", message: "expected an object of named parameters" }]);
  }
  const { _meta: _ignored, ...rest } = value;
  return rest;
}

// ---------------------------------------------------------------- tool execution

/** Runs one tool for the caller: auth, special rules, schema, the tool, then its output schema. */
export async function runTool(tool: ToolDefinition, rawArgs: unknown, ctx: RpcCallContext, what = "params", meta?: unknown): Promise<unknown> {
  const principal = ctx.authenticate();
  if (!principal) throw unauthorized();
  // MCP carries the progress token in the request's `_meta` (beside a tools/call's arguments, or among a direct call's parameters).
  const requestMeta = meta ?? (isPlainObject(rawArgs) ? rawArgs._meta : undefined);
  const progressToken = isPlainObject(requestMeta) ? requestMeta.progressToken : undefined;
  const args = namedArguments(rawArgs, what);
  tool.precheck?.(args);
  // Before the schemas (scopes recurse per level): a parameter nested thousands of levels deep is refused here.
  const deep = fieldNestingTooDeep(args);
  if (deep !== null) throw invalidParams([{ field: deep, code: "too_deep", message: tooDeepMessage() }]);
  const parsed = tool.input.safeParse(args);
  if (!parsed.success) throw invalidParams(issuesOf(parsed.error));
  const started = performance.now();
  const progress = (message: string, value: number, total?: number) => {
    if ((typeof progressToken !== "string" && typeof progressToken !== "number") || !ctx.notify) return;
    ctx.notify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken, progress: value, ...(total !== undefined ? { total } : {}), message } });
  };
  const result = await tool.run(parsed.data, {
    principal,
    services: ctx.services,
    logger: ctx.logger,
    requestId: ctx.requestId,
    hostToken: ctx.hostToken ?? (() => undefined),
    origin: ctx.origin ?? "",
    progress,
  });
  const output = tool.output.safeParse(result);
  if (!output.success) {
    ctx.logger.error({ tool: tool.name, issues: issuesOf(output.error).slice(0, 10) }, "tool result does not match its output schema");
    throw internalError();
  }
  ctx.logger.info({ tool: tool.name, orgId: principal.orgId, keyId: principal.keyId, ms: Math.round(performance.now() - started) }, "tool call");
  return output.data;
}

/** Any thrown value as a JSON-RPC error object; unexpected errors are logged and become a generic -32603. */
export function toRpcError(error: unknown, logger: Logger): RpcErrorObject {
  if (error instanceof RpcError) return error.toJSON();
  if (error instanceof DomainError) {
    // A rule the schemas do not express, found by a service: still the caller's parameters.
    if (error.code === "invalid") {
      const message = `Invalid params: ${error.message}`;
      if (error.field === null) return { code: RpcCode.InvalidParams, message };
      return { code: RpcCode.InvalidParams, message, data: { field: error.field, issues: [{ field: error.field, code: "invalid", message: error.message }] } };
    }
    return { code: RpcCode.ServerError, message: error.message };
  }
  if (error instanceof HostError) {
    // A git host's answer the tool needed and did not get (rate limited, refused, unreachable): said as such.
    const { reason, message } = hostErrorAnswer(error);
    logger.warn({ remote: error.remote, operation: error.operation, status: error.status, err: { message: error.message } }, "tool interface: git host call failed");
    return { code: RpcCode.ServerError, message, data: { reason } };
  }
  if (error instanceof StorageFullError || error instanceof StorageWriteError) {
    // The file system refused a write (nothing of it was stored): say so instead of "Internal error".
    logger.error({ path: error.path, detail: error.detail }, "tool interface: write refused by the file system");
    return { code: RpcCode.ServerError, message: error.message, data: { reason: error instanceof StorageFullError ? "insufficient_storage" : "storage_unavailable", path: error.path } };
  }
  const err = error instanceof Error ? { message: error.message, stack: error.stack, name: error.name } : { message: String(error) };
  logger.error({ err }, "tool interface: unhandled error");
  return internalError().toJSON();
}

// ---------------------------------------------------------------- MCP methods

const initializeParams = z.looseObject({
  protocolVersion: z.string().min(1).max(50),
  capabilities: z.looseObject({}).optional(),
  clientInfo: z.looseObject({}).optional(),
});

const callToolParams = z.looseObject({
  name: z.string().min(1).max(200),
  arguments: z.unknown().optional(),
});

const INSTRUCTIONS =
  "Loupe indexes your organisation's repositories and answers where things are done: index_repository, get_repository_status, " +
  "search_code (file, lines and the code of each span), query_repositories (an answer with its sources), get_query_session. " +
  "It also keeps pull/merge requests, code reviews, review comments and custom context (coding patterns and review " +
  "instructions); for those tools the repository parameters name, remote and defaultBranch go together.";

let cachedToolList: unknown[] | undefined;

/** tools/list entries: JSON Schemas generated from the zod schemas (draft-07, as MCP clients validate with it). */
export function toolList(): unknown[] {
  cachedToolList ??= allTools.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: z.toJSONSchema(tool.input, { target: "draft-7", io: "input", unrepresentable: "any" }),
    outputSchema: z.toJSONSchema(tool.output, { target: "draft-7", io: "output", unrepresentable: "any" }),
    annotations: {
      title: tool.title,
      readOnlyHint: tool.readOnly,
      destructiveHint: false,
      idempotentHint: tool.readOnly,
      openWorldHint: false,
    },
  }));
  return cachedToolList;
}

function parse<S extends z.ZodType>(schema: S, params: unknown): z.output<S> {
  const parsed = schema.safeParse(params ?? {});
  if (!parsed.success) throw invalidParams(issuesOf(parsed.error));
  return parsed.data;
}

type Handler = (params: unknown, ctx: RpcCallContext) => Promise<unknown>;

const mcpMethods: Record<string, Handler> = {
  async initialize(params, ctx) {
    const { protocolVersion } = parse(initializeParams, params);
    const version = (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(protocolVersion) ? protocolVersion : LATEST_PROTOCOL_VERSION;
    ctx.initialized = { protocolVersion: version };
    return { protocolVersion: version, capabilities: { tools: { listChanged: false } }, serverInfo: SERVER_INFO, instructions: INSTRUCTIONS };
  },
  async "notifications/initialized"() {
    return {};
  },
  async ping() {
    return {};
  },
  async "tools/list"() {
    return { tools: toolList() };
  },
  async "tools/call"(params, ctx) {
    const { name, arguments: args, _meta: meta } = parse(callToolParams, params);
    const tool = toolsByName.get(name);
    if (!tool) throw new RpcError(RpcCode.MethodNotFound, `Unknown tool: ${name}`, { name });
    const result = await runTool(tool, args, ctx, "arguments", meta);
    return { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: result, isError: false };
  },
};

function jaysonMethod(handler: Handler) {
  return new jayson.Method({
    useContext: true,
    handler: ((params: unknown, context: RpcCallContext, callback: (error: RpcErrorObject | null, result?: unknown) => void) => {
      handler(params, context).then(
        (result) => callback(null, result),
        (error: unknown) => callback(toRpcError(error, context.logger)),
      );
    }) as never,
  });
}

const methods: Record<string, jayson.Method> = {};
for (const [name, handler] of Object.entries(mcpMethods)) methods[name] = jaysonMethod(handler);
for (const tool of allTools) methods[tool.name] = jaysonMethod((params, ctx) => runTool(tool, params, ctx));

const unknownMethod = (name: string) =>
  jaysonMethod(async () => {
    throw new RpcError(RpcCode.MethodNotFound, `Method not found: ${name.length > 100 ? `${name.slice(0, 100)}...` : name}`);
  });

/** Batches hold at most this many messages (-32099 beyond, jayson's batch-length error). */
export const MAX_BATCH_LENGTH = 100;

const server = new jayson.Server(methods, {
  version: 2,
  maxBatchLength: MAX_BATCH_LENGTH,
  router(this: jayson.Server, method: string) {
    return Object.hasOwn(methods, method) ? methods[method]! : unknownMethod(method);
  },
});
server.errorMessages[RpcCode.ParseError] = "Parse error";
server.errorMessages[RpcCode.InvalidRequest] = "Invalid Request";
server.errorMessages[RpcCode.MethodNotFound] = "Method not found";

const isResponseMessage = (m: unknown) => isPlainObject(m) && !("method" in m) && ("result" in m || "error" in m) && "id" in m;

/**
 * Handles one transport message (an HTTP body, a stdio line) as JSON-RPC 2.0: parse errors,
 * invalid requests, batches and notifications as the spec says. Returns null when nothing is to
 * be sent back (notifications only, or responses from the client, which Loupe never asks for).
 */
export async function handleJsonRpc(body: string, ctx: RpcCallContext): Promise<JsonRpcResponse | JsonRpcResponse[] | null> {
  let message: unknown;
  try {
    message = JSON.parse(body);
  } catch {
    return { jsonrpc: "2.0", id: null, error: { code: RpcCode.ParseError, message: "Parse error: the body is not valid JSON" } };
  }
  if (Array.isArray(message)) {
    if (message.length > 0 && message.every(isResponseMessage)) return null;
    // A nested array is not a request object: let jayson answer it with -32600 like any other non-object.
    message = message.filter((m) => !isResponseMessage(m)).map((m) => (Array.isArray(m) ? null : m));
  } else if (isResponseMessage(message)) {
    return null;
  } else if (typeof message !== "object" || message === null) {
    // jayson would re-parse a JSON string body as JSON: any non-object is simply not a request.
    return { jsonrpc: "2.0", id: null, error: { code: RpcCode.InvalidRequest, message: "Invalid Request" } };
  }
  const response = await new Promise<unknown>((resolve) => {
    server.call(message as never, ctx, (error, result) => resolve(error ?? result ?? null));
  });
  return (response ?? null) as JsonRpcResponse | JsonRpcResponse[] | null;
}
