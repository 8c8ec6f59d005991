/**
 * The one error type of the model adapters. Messages are built from redacted text only: an API key
 * never appears in `message`, and no request object (which would carry the key in its headers) is
 * attached.
 */

export type LlmErrorKind =
  /** The server answered with a non-2xx status. */
  | "http"
  /** An attempt took longer than the configured timeout (or a stream went idle for that long). */
  | "timeout"
  /** The connection failed (refused, reset, DNS, TLS). */
  | "network"
  /** The server answered 2xx but the body was not what the API promises. */
  | "response"
  /** The server reported an error inside a stream. */
  | "stream"
  /** The configuration was invalid. */
  | "config";

export class LlmError extends Error {
  override readonly name = "LlmError";
  readonly kind: LlmErrorKind;
  /** HTTP status when kind is "http", else null. */
  readonly status: number | null;
  /** Whether retrying the same request could succeed (429, 5xx, network, timeout). */
  readonly retryable: boolean;
  /** How many attempts were made before giving up (1 = no retry). */
  readonly attempts: number;

  constructor(
    message: string,
    details: { kind: LlmErrorKind; status?: number | null; retryable?: boolean; attempts?: number },
  ) {
    super(message);
    this.kind = details.kind;
    this.status = details.status ?? null;
    this.retryable = details.retryable ?? false;
    this.attempts = details.attempts ?? 1;
  }
}

/** Replaces every occurrence of each secret (length >= 4) in `text` with "[redacted]". */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret === undefined || secret.length < 4) continue;
    out = out.split(secret).join("[redacted]");
  }
  return out;
}
