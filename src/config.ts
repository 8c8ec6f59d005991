import { resolve } from "node:path";
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
  LOUPE_API_KEY: optionalString.pipe(
    z
      .string()
      .min(16, "must be at least 16 characters")
      .refine((v) => !/change-?me|changeme|example|placeholder/i.test(v), "is a placeholder: set a long random key (e.g. openssl rand -hex 32)")
      .optional(),
  ),
  LOUPE_EVENTSTORE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^(esdb|esdb\+discover|kurrentdb|kurrentdb\+discover|kurrent):\/\//, "must start with esdb:// or kurrentdb://")
      .optional(),
  ),
  LOUPE_ELASTICSEARCH_URL: optionalString.pipe(httpUrl.optional()),
  LOUPE_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** `json` (one object per line, for log shippers) or `pretty` (coloured lines for people); default: pretty on a terminal, else json. */
  LOUPE_LOG_FORMAT: optionalString.pipe(z.enum(["json", "pretty"], { error: "must be json or pretty" }).optional()),
  LOUPE_MAX_BODY_BYTES: z.coerce.number().int().positive().default(1024 * 1024),
  LOUPE_GRAPHIQL: booleanFlag.default(true),
  LOUPE_WORKERS: z.coerce.number().int().min(1).max(64).optional(),
  LOUPE_SEARCH_THREADS: z.coerce.number().int().min(0).max(64).optional(),
  LOUPE_MAX_FILE_BYTES: z.coerce.number().int().positive().default(1024 * 1024),
  LOUPE_GITHUB_URL: httpUrl.default("https://github.com"),
  LOUPE_GITLAB_URL: httpUrl.default("https://gitlab.com"),
  LOUPE_BITBUCKET_URL: httpUrl.default("https://bitbucket.org"),
  LOUPE_AZURE_URL: httpUrl.default("https://dev.azure.com"),
  LOUPE_GITHUB_API_URL: httpUrl.optional(),
  LOUPE_GITLAB_API_URL: httpUrl.optional(),
  LOUPE_BITBUCKET_API_URL: httpUrl.optional(),
  LOUPE_AZURE_API_URL: httpUrl.optional(),
  /** Check host read access for repositories cloned from a file:// base too (tests; local mirrors of hosted repos). */
  LOUPE_FILE_HOSTS_NEED_TOKEN: booleanFlag.default(false),
  /** Webhook secrets (POST /webhooks/<host>); a host without one refuses its webhooks with 401. */
  LOUPE_WEBHOOK_SECRET_GITHUB: optionalString,
  LOUPE_WEBHOOK_SECRET_GITLAB: optionalString,
  LOUPE_WEBHOOK_SECRET_BITBUCKET: optionalString,
  LOUPE_WEBHOOK_SECRET_AZURE: optionalString,
  /** Organisation webhooks record into (default: the bootstrap organisation). */
  LOUPE_WEBHOOK_ORG: optionalString,
  /** Review pull requests when they are opened / marked ready (drafts are skipped). */
  LOUPE_AUTO_REVIEW: booleanFlag.default(false),
  /** Post reviews to the host (needs LOUPE_REVIEW_TOKEN_<HOST>). */
  LOUPE_POST_REVIEWS: booleanFlag.default(false),
  /** Service tokens for fetching pull request heads and posting reviews, per host. */
  LOUPE_REVIEW_TOKEN_GITHUB: optionalString,
  LOUPE_REVIEW_TOKEN_GITLAB: optionalString,
  LOUPE_REVIEW_TOKEN_BITBUCKET: optionalString,
  LOUPE_REVIEW_TOKEN_AZURE: optionalString,
  /** Name of the review identity: summaries from `<name>[bot]`, inline comments from `<name>`. */
  LOUPE_REVIEW_BOT_NAME: z.string().trim().min(1).max(100).default("loupe"),
  /** Reviews of larger changes are SKIPPED. */
  LOUPE_REVIEW_MAX_FILES: z.coerce.number().int().positive().default(300),
  LOUPE_REVIEW_MAX_CHANGED_LINES: z.coerce.number().int().positive().default(20_000),
  /** Pause between reviewed files (throttling; tests use it to stop a review midway). */
  LOUPE_REVIEW_THROTTLE_MS: z.coerce.number().int().min(0).max(600_000).default(0),
  /** Optional bearer token for GET /metrics; unset = /metrics is open (bind it to a private network). */
  LOUPE_METRICS_TOKEN: optionalString.pipe(z.string().min(16, "must be at least 16 characters").optional()),
  /** How long a SIGTERM waits for in-flight requests and jobs before checkpointing and exiting. */
  LOUPE_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(20_000),
  /** Directories (comma-separated; relative ones resolved against the working directory) under which POST /v2/repositories/local may index git repositories by path, for the bootstrap organisation only. */
  LOUPE_LOCAL_ROOTS: optionalString,
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  bootstrapApiKey: string | undefined;
  eventStoreUrl: string | undefined;
  elasticsearchUrl: string | undefined;
  logLevel: z.infer<typeof configSchema>["LOUPE_LOG_LEVEL"];
  /** Unset = pretty when stdout is a terminal, JSON otherwise (src/logging.ts). */
  logFormat: "json" | "pretty" | undefined;
  maxBodyBytes: number;
  graphiql: boolean;
  workers: number | undefined;
  /** Search worker threads over the embedded index (0: search on the serving thread); default: per core. */
  searchThreads: number | undefined;
  maxFileBytes: number;
  hostUrls: Record<"github" | "gitlab" | "bitbucket" | "azure", string>;
  hostApiUrls: Partial<Record<"github" | "gitlab" | "bitbucket" | "azure", string>>;
  /** Search/query check host read access even for file:// clone bases (LOUPE_FILE_HOSTS_NEED_TOKEN). */
  fileHostsNeedToken: boolean;
  metricsToken: string | undefined;
  shutdownTimeoutMs: number;
  localRoots: string[];
  webhooks: {
    /** Never logged, never recorded. */
    secrets: Partial<Record<"github" | "gitlab" | "bitbucket" | "azure", string>>;
    orgId: string | undefined;
  };
  reviews: {
    autoReview: boolean;
    post: boolean;
    /** Never logged, never recorded. */
    tokens: Partial<Record<"github" | "gitlab" | "bitbucket" | "azure", string>>;
    botName: string;
    maxFiles: number;
    maxChangedLines: number;
    throttleMs: number;
  };
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
    logFormat: v.LOUPE_LOG_FORMAT,
    maxBodyBytes: v.LOUPE_MAX_BODY_BYTES,
    graphiql: v.LOUPE_GRAPHIQL,
    workers: v.LOUPE_WORKERS,
    searchThreads: v.LOUPE_SEARCH_THREADS,
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
    fileHostsNeedToken: v.LOUPE_FILE_HOSTS_NEED_TOKEN,
    metricsToken: v.LOUPE_METRICS_TOKEN,
    shutdownTimeoutMs: v.LOUPE_SHUTDOWN_TIMEOUT_MS,
    localRoots: (v.LOUPE_LOCAL_ROOTS ?? "").split(",").map((p) => p.trim()).filter(Boolean).map((p) => resolve(p)),
    webhooks: {
      secrets: {
        github: v.LOUPE_WEBHOOK_SECRET_GITHUB,
        gitlab: v.LOUPE_WEBHOOK_SECRET_GITLAB,
        bitbucket: v.LOUPE_WEBHOOK_SECRET_BITBUCKET,
        azure: v.LOUPE_WEBHOOK_SECRET_AZURE,
      },
      orgId: v.LOUPE_WEBHOOK_ORG,
    },
    reviews: {
      autoReview: v.LOUPE_AUTO_REVIEW,
      post: v.LOUPE_POST_REVIEWS,
      tokens: {
        github: v.LOUPE_REVIEW_TOKEN_GITHUB,
        gitlab: v.LOUPE_REVIEW_TOKEN_GITLAB,
        bitbucket: v.LOUPE_REVIEW_TOKEN_BITBUCKET,
        azure: v.LOUPE_REVIEW_TOKEN_AZURE,
      },
      botName: v.LOUPE_REVIEW_BOT_NAME,
      maxFiles: v.LOUPE_REVIEW_MAX_FILES,
      maxChangedLines: v.LOUPE_REVIEW_MAX_CHANGED_LINES,
      throttleMs: v.LOUPE_REVIEW_THROTTLE_MS,
    },
    env,
  };
}
