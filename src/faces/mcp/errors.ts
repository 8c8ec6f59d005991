/**
 * JSON-RPC 2.0 error codes of the tool interface (interface.md section 7) and the error type the
 * tool layer throws. Messages are written for the caller: never a stack, a path or an internal name.
 */
export const RpcCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Server error: authentication failures, not-found and conflicts of tool calls, service errors. */
  ServerError: -32000,
} as const;

export type RpcErrorObject = { code: number; message: string; data?: unknown };

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "RpcError";
  }

  toJSON(): RpcErrorObject {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}

export const unauthorized = () => new RpcError(RpcCode.ServerError, "Unauthorized: missing or invalid API key");
export const internalError = () => new RpcError(RpcCode.InternalError, "Internal error");

export type ParamIssue = { field: string; code: string; message: string };

/** -32602 naming the offending field(s): message `Invalid params: limit: Too big: ...`, data `{field, issues}`. */
export function invalidParams(issues: ParamIssue[]): RpcError {
  return new RpcError(RpcCode.InvalidParams, `Invalid params: ${issues.map((i) => `${i.field}: ${i.message}`).join("; ")}`, {
    field: issues[0]?.field ?? "(params)",
    issues,
  });
}

/** -32602 for one field a service found wrong. */
export const invalidParamsOf = (field: string, message: string): RpcError => invalidParams([{ field, code: "invalid", message }]);
