import { AsyncLocalStorage } from "node:async_hooks";
import { pino, type Logger } from "pino";

export type { Logger };

/** What every log line written while handling a request carries (see `withLogContext`). */
export type LogContext = { requestId: string };

const logContextStore = new AsyncLocalStorage<LogContext>();

/**
 * Runs `fn` with a log context: every line any logger writes inside it (the request's own logger,
 * services, background work the request starts) carries `requestId`, with no logger passed down.
 */
export function withLogContext<T>(context: LogContext, fn: () => T): T {
  return logContextStore.run(context, fn);
}

/** The log context of the work running now (undefined outside a request). */
export const currentLogContext = (): LogContext | undefined => logContextStore.getStore();

/**
 * Structured JSON logs. Header values that carry secrets are redacted wherever they appear, and
 * callers never pass tokens or keys to the logger in the first place.
 */
export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  const options = {
    level,
    base: { service: "loupe" },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Fields given explicitly at the call site win over the context's. A fresh object each time:
    // pino merges the line's fields into the mixin's object (Object.assign), never into the store.
    mixin: () => {
      const context = logContextStore.getStore();
      return context ? { requestId: context.requestId } : {};
    },
    redact: {
      paths: [
        "authorization",
        "*.authorization",
        "*.headers.authorization",
        'headers["x-host-token"]',
        'headers["x-github-token"]',
        'headers["x-gitlab-token"]',
        'headers["x-bitbucket-token"]',
        'headers["x-azure-token"]',
        "token",
        "*.token",
        "hostToken",
        "*.hostToken",
        "apiKey",
        "*.apiKey",
        "key",
        "secret",
        "*.secret",
        "password",
        "*.password",
      ],
      censor: "[redacted]",
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
