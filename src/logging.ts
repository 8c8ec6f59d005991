import { AsyncLocalStorage } from "node:async_hooks";
import { pino, type Logger } from "pino";
import pretty from "pino-pretty";

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

export type LogFormat = "json" | "pretty";

/** The format asked for (LOUPE_LOG_FORMAT), else pretty on a terminal and JSON for everything else (files, pipes, log shippers). */
export const resolveLogFormat = (format: LogFormat | undefined, stream: { isTTY?: boolean } = process.stdout): LogFormat =>
  format ?? (stream.isTTY ? "pretty" : "json");

/**
 * Structured logs: JSON lines, or with `format: "pretty"` one coloured line per entry for people
 * (pino-pretty, in-process and synchronous; colours only on a terminal and without NO_COLOR). Header
 * values that carry secrets are redacted wherever they appear, in either format, and callers never
 * pass tokens or keys to the logger in the first place.
 */
export function createLogger(level: string, destination?: NodeJS.WritableStream, format: LogFormat = "json"): Logger {
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
  if (format === "pretty") {
    const out = destination ?? process.stdout;
    const colorize = Boolean((out as { isTTY?: boolean }).isTTY) && !process.env.NO_COLOR;
    return pino(options, pretty({ destination: out, colorize, sync: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname,service", singleLine: true }));
  }
  return destination ? pino(options, destination) : pino(options);
}
