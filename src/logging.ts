import { pino, type Logger } from "pino";

export type { Logger };

/**
 * Structured JSON logs. Header values that carry secrets are redacted wherever they appear, and
 * callers never pass tokens or keys to the logger in the first place.
 */
export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  const options = {
    level,
    base: { service: "loupe" },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
        "authorization",
        "*.authorization",
        "*.headers.authorization",
        'headers["x-host-token"]',
        'headers["x-github-token"]',
        "token",
        "*.token",
        "key",
        "secret",
        "*.secret",
      ],
      censor: "[redacted]",
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
