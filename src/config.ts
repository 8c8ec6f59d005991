import { z } from "zod";

/** Environment variables Loupe reads, with the embedded-mode defaults. */
const booleanFlag = z
  .enum(["true", "false", "1", "0", "yes", "no", "on", "off"])
  .transform((v) => ["true", "1", "yes", "on"].includes(v));

const optionalString = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === "" ? undefined : v));

const httpUrl = z
  .string()
  .trim()
  .refine((v) => /^(https?|file):\/\//.test(v), "must be an http(s):// or file:// URL")
  .transform((v) => v.replace(/\/+$/, ""));

export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  LOUPE_HOST: z.string().default("0.0.0.0"),
  LOUPE_DATA_DIR: z.string().min(1).default("./data"),
  LOUPE_API_KEY: optionalString.pipe(z.string().min(16, "must be at least 16 characters").optional()),
  LOUPE_EVENTSTORE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^(esdb|esdb\+discover|kurrentdb|kurrentdb\+discover|kurrent):\/\//, "must start with esdb:// or kurrentdb://")
      .optional(),
  ),
  LOUPE_ELASTICSEARCH_URL: optionalString.pipe(httpUrl.optional()),
  LOUPE_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  LOUPE_MAX_BODY_BYTES: z.coerce.number().int().positive().default(1024 * 1024),
  LOUPE_GRAPHIQL: booleanFlag.default(true),
  LOUPE_WORKERS: z.coerce.number().int().min(1).max(64).optional(),
  LOUPE_MAX_FILE_BYTES: z.coerce.number().int().positive().default(1024 * 1024),
  LOUPE_GITHUB_URL: httpUrl.default("https://github.com"),
  LOUPE_GITLAB_URL: httpUrl.default("https://gitlab.com"),
  LOUPE_BITBUCKET_URL: httpUrl.default("https://bitbucket.org"),
  LOUPE_AZURE_URL: httpUrl.default("https://dev.azure.com"),
  LOUPE_GITHUB_API_URL: httpUrl.optional(),
  LOUPE_GITLAB_API_URL: httpUrl.optional(),
  LOUPE_BITBUCKET_API_URL: httpUrl.optional(),
  LOUPE_AZURE_API_URL: httpUrl.optional(),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  bootstrapApiKey: string | undefined;
  eventStoreUrl: string | undefined;
  elasticsearchUrl: string | undefined;
  logLevel: z.infer<typeof configSchema>["LOUPE_LOG_LEVEL"];
  maxBodyBytes: number;
  graphiql: boolean;
  workers: number | undefined;
  maxFileBytes: number;
  hostUrls: Record<"github" | "gitlab" | "bitbucket" | "azure", string>;
  hostApiUrls: Partial<Record<"github" | "gitlab" | "bitbucket" | "azure", string>>;
  env: Record<string, string | undefined>;
};

export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; message: string }[]) {
    super(
      "Invalid configuration:\n" + problems.map((p) => `  ${p.variable}: ${p.message}`).join("\n"),
    );
    this.name = "ConfigError";
  }
}

export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => ({
        variable: String(issue.path[0] ?? "?"),
        message: issue.message,
      })),
    );
  }
  const v = parsed.data;
  return {
    port: v.PORT,
    host: v.LOUPE_HOST,
    dataDir: v.LOUPE_DATA_DIR,
    bootstrapApiKey: v.LOUPE_API_KEY,
    eventStoreUrl: v.LOUPE_EVENTSTORE_URL,
    elasticsearchUrl: v.LOUPE_ELASTICSEARCH_URL,
    logLevel: v.LOUPE_LOG_LEVEL,
    maxBodyBytes: v.LOUPE_MAX_BODY_BYTES,
    graphiql: v.LOUPE_GRAPHIQL,
    workers: v.LOUPE_WORKERS,
    maxFileBytes: v.LOUPE_MAX_FILE_BYTES,
    hostUrls: {
      github: v.LOUPE_GITHUB_URL,
      gitlab: v.LOUPE_GITLAB_URL,
      bitbucket: v.LOUPE_BITBUCKET_URL,
      azure: v.LOUPE_AZURE_URL,
    },
    hostApiUrls: {
      github: v.LOUPE_GITHUB_API_URL,
      gitlab: v.LOUPE_GITLAB_API_URL,
      bitbucket: v.LOUPE_BITBUCKET_API_URL,
      azure: v.LOUPE_AZURE_API_URL,
    },
    env,
  };
}
