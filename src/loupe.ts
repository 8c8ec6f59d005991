import { join, resolve } from "node:path";
import { closeSync, fchmodSync, mkdirSync, openSync, writeSync } from "node:fs";
import { ulid } from "./ids.ts";
import { ConfigError, type Config } from "./config.ts";
import { createLogger, resolveLogFormat, type Logger } from "./logging.ts";
import { lockDataDir } from "./data-dir-lock.ts";
import { createSpaceReserve } from "./data-dir-reserve.ts";
import type { StorageSpace } from "./storage-errors.ts";
import { openEventStore } from "./eventstore/open.ts";
import { catalogue } from "./features/catalogue.ts";
import { createLmdbReadStore } from "./readstore/lmdb.ts";
import { createProjectionRunner, type ProjectionRunner } from "../projections/runner.ts";
import { allProjections } from "./features/read-models.ts";
import { createKeyService } from "./features/access/service.ts";
import { createHttpApp } from "./faces/http/app.ts";
import { adminRoutes } from "./faces/graphql/route.ts";
import { mcpRoutes } from "./faces/mcp/route.ts";
import type { Services } from "./services.ts";
import type { CodeIndex } from "./codeindex/port.ts";
import { createEmbeddedCodeIndex, type EmbeddedCodeIndex } from "./codeindex/embedded/code-index.ts";
import { createSearcher, type Searcher } from "./retrieval/search.ts";
import { createSearchPool, defaultSearchThreads } from "./retrieval/search-threads/pool.ts";
import { createElasticsearchCodeIndex } from "./codeindex/elasticsearch.ts";
import { createGitMirrors } from "./git/mirrors.ts";
import { createHosts } from "./hosts/index.ts";
import { createPullRequestQueries } from "./features/pull-requests/queries.ts";
import { createCodeReviewQueries } from "./features/code-reviews/queries.ts";
import { createCodeSearchService } from "./features/code-search/service.ts";
import { createQuerySessionService } from "./features/query-sessions/service.ts";
import { createAuditService } from "./audit/service.ts";
import { createOperationsService } from "./features/operations/service.ts";
import { createPullRequestService } from "./features/pull-requests/service.ts";
import { createHostTokens } from "./features/pull-requests/host-tokens.ts";
import { createReviewService } from "./features/code-reviews/service.ts";
import { createCustomContextService } from "./features/custom-context/service.ts";
import { webhookRoutes } from "./faces/http/routes/webhooks.ts";
import { pullRequestRoutes } from "./faces/http/routes/pull-requests.ts";
import { createModelsFromEnv, type Models } from "./models/config.ts";
import { createIndexer } from "./features/repositories/indexer.ts";
import { repositoryRoutes } from "./faces/http/routes/repositories.ts";
import { searchRoutes } from "./faces/http/routes/search.ts";
import { createMetrics, instrumentEventStore } from "./metrics.ts";
import { createLocalRepositories } from "./features/repositories/local.ts";
import { localRepositoryRoutes } from "./faces/http/routes/local-repositories.ts";
import { consoleRoutes } from "./faces/console/route.tsx";

/** The code index: Elasticsearch when LOUPE_ELASTICSEARCH_URL is set, else embedded under <dataDir>/codeindex. */
export function openCodeIndex(config: Config, options: { storageSpace?: StorageSpace } = {}): CodeIndex | EmbeddedCodeIndex {
  return config.elasticsearchUrl
    ? createElasticsearchCodeIndex({ node: config.elasticsearchUrl })
    : createEmbeddedCodeIndex({ dir: join(config.dataDir, "codeindex"), ...options });
}

/**
 * Search: on worker threads over the embedded index (one per core, LOUPE_SEARCH_THREADS to change; 0
 * searches on the serving thread), in-thread over Elasticsearch, which does the work itself.
 */
function openSearcher(config: Config, codeIndex: CodeIndex | EmbeddedCodeIndex, embedder: Models["embedder"], logger: Logger): Searcher & { close(): Promise<void> } {
  const threads = config.searchThreads ?? defaultSearchThreads();
  if (config.elasticsearchUrl || threads === 0 || !("generationOf" in codeIndex)) {
    const searcher = createSearcher({ codeIndex, embedder, logger });
    return { ...searcher, close: async () => {} };
  }
  return createSearchPool({ indexDir: join(config.dataDir, "codeindex"), index: codeIndex, threads, env: config.env });
}

/**
 * Composition root shared by `main.ts`, the tests and the scripts: config -> stores -> projections
 * -> services -> the HTTP fetch handler. Nothing is served here; callers choose Node or Deno.
 */
export type LoupeOptions = {
  logger?: Logger;
  /**
   * Where a generated bootstrap admin key goes: `terminal` (default when stdout is a TTY) hands the
   * line to `announce` (default: stdout); `file` (default otherwise: the logs may be shipped) writes it
   * to `<dataDir>/admin-key` with mode 0600 and logs the path, never the key.
   */
  adminKeyTo?: "terminal" | "file";
  announce?: (line: string) => void;
};

export async function createLoupe(config: Config, options: LoupeOptions = {}) {
  // One process at a time on the data directory (maintenance scripts take the same lock).
  const dataDirLock = await lockDataDir(config.dataDir, "server");
  try {
    const loupe = await composeLoupe(config, options);
    return {
      ...loupe,
      dataDirLock,
      async close() {
        await loupe.close();
        await dataDirLock.release();
      },
    };
  } catch (error) {
    await dataDirLock.release();
    throw error;
  }
}

async function composeLoupe(config: Config, options: LoupeOptions) {
  mkdirSync(config.dataDir, { recursive: true });
  const logger = options.logger ?? createLogger(config.logLevel, undefined, resolveLogFormat(config.logFormat));
  const metrics = createMetrics();
  // A full disk refuses the write that found it (HTTP 507) and gives back the space reserve, so that
  // failures can still be recorded (src/data-dir-reserve.ts); reads go on. The reserve is taken again
  // once there is room.
  const reserve = createSpaceReserve(config.dataDir, {
    onKept: () => logger.info({ path: reserve.path, dataDir: config.dataDir }, "room again on the data directory's file system: the space reserve is kept again"),
  });
  if (!reserve.keep()) logger.warn({ path: reserve.path, dataDir: config.dataDir }, "no room for the space reserve on the data directory's file system: free space there (it is taken once there is room)");
  let diskFull = false;
  const storageSpace: StorageSpace = {
    full(path) {
      diskFull = true;
      if (reserve.release(path)) logger.error({ dataDir: config.dataDir, path }, "no space left on device in the data directory: the write was refused (HTTP 507), and the space reserve given back so that failures can still be recorded; free space there");
    },
    givenBackSince: reserve.givenBackSince,
  };
  // Timing decorator: append latency histogram, events by type, and a log line naming the correlation id.
  const eventStore = instrumentEventStore(await openEventStore(config, catalogue, { storageSpace }), metrics, logger);
  const readStore = createLmdbReadStore({ dir: join(config.dataDir, "readmodels"), storageSpace });
  const runner = createProjectionRunner({ eventStore, readStore, projections: allProjections });
  metrics.setRunner(runner);
  await runner.start();
  await catchUp(runner, await eventStore.headPosition(), () => diskFull, logger);
  const keys = createKeyService({ eventStore, readStore, runner });
  // One set of models for the process (the embedder's concurrency limit is process-wide); the search
  // threads build their own embedder from the same settings.
  const models = createModelsFromEnv(config.env);
  const codeIndex = openCodeIndex(config, { storageSpace });
  const searcher = openSearcher(config, codeIndex, models.embedder, logger);
  const mirrors = createGitMirrors({ rootDir: join(config.dataDir, "mirrors") });
  // Clones a crash interrupted (this process holds the data directory's lock: nobody else clones here).
  const staleClones = mirrors.removeStaleClones();
  if (staleClones.length > 0) logger.info({ removed: staleClones }, "removed temporary clones an earlier run left behind");
  const hosts = createHosts({
    github: { apiBase: config.hostApiUrls.github },
    gitlab: { apiBase: config.hostApiUrls.gitlab },
    bitbucket: { apiBase: config.hostApiUrls.bitbucket },
    azure: { apiBase: config.hostApiUrls.azure },
  });
  // Local paths (LOUPE_LOCAL_ROOTS, an operator setting) are for the bootstrap organisation only.
  const localRepositories = createLocalRepositories({ roots: config.localRoots, dataDir: config.dataDir, operatorOrg: keys.bootstrapOrgId });
  const indexer = createIndexer({
    cloneUrlFor: localRepositories.cloneUrlFor, // local paths (LOUPE_LOCAL_ROOTS) clone from file://
    mayIndexLocal: localRepositories.mayIndex,
    config, logger, eventStore, readStore, runner, codeIndex, mirrors, hosts,
    embedder: models.embedder,
    metrics,
  });
  // Pull requests, code reviews, comments, custom context (webhooks in, review worker).
  // A merge request shows its code reviews, and a code review its merge request: the pull request
  // queries get the reviews through a port the code review queries answer.
  const prQueries = createPullRequestQueries(readStore, config.hostUrls, {
    reviewsOf: (orgId, key) => reviewQueries.reviewsOf(orgId, key),
    countReviews: (orgId, key) => reviewQueries.countReviews(orgId, key),
  });
  const reviewQueries = createCodeReviewQueries(readStore, prQueries);
  const customContext = createCustomContextService({ eventStore, readStore, runner });
  const webhookOrg = () => config.webhooks.orgId ?? keys.organisations()[0]?.orgId;
  // The service host tokens serve the operator's organisations only: the bootstrap one and the webhook one.
  const hostTokens = createHostTokens({
    serviceTokens: config.reviews.tokens, hostUrls: config.hostUrls, fileHostsNeedToken: config.fileHostsNeedToken,
    operatorOrgs: () => [keys.bootstrapOrgId(), webhookOrg()], hosts,
  });
  const reviews = createReviewService({
    config, logger: logger.child({ component: "reviews" }), eventStore, readStore, runner, mirrors, hosts, hostTokens,
    chat: models.chat, queries: prQueries, reviewQueries, customContext,
    codeIndex, indexedRepositories: (orgId) => indexer.list(orgId), // related code for the chat model
  });
  const pullRequests = createPullRequestService({
    config, logger, eventStore, runner, hosts, queries: prQueries, reviews, customContext, hostTokens, webhookOrg,
  });
  // Code search and query sessions (POST /v2/search, /v2/query).
  const codeSearch = createCodeSearchService({
    searcher, codeIndex, hosts, hostUrls: config.hostUrls, fileHostsNeedToken: config.fileHostsNeedToken,
    cloneUrlFor: localRepositories.cloneUrlFor, mayReadLocal: localRepositories.mayIndex, repositories: indexer,
    onSearch: () => metrics.recordSearch(),
  });
  const querySessions = createQuerySessionService({ eventStore, readStore, runner, logger, codeSearch, chat: models.chat });
  const audit = createAuditService({ eventStore, readStore, runner });
  const operations = createOperationsService({ eventStore, runner, operatorOrg: keys.bootstrapOrgId });
  const services: Services = { audit, operations, hosts, models, pullRequests, reviews, customContext, codeSearch, querySessions, config, logger, eventStore, readStore, runner, keys, metrics, localRepositories, codeIndex, searcher, mirrors, indexer };
  metrics.addSourcesFrom(services);

  const close = async () => {
    await reviews.stop();
    await indexer.close();
    await searcher.close();
    await codeIndex.close();
    await runner.stop();
    await eventStore.close();
    await readStore.close();
    reserve.stop();
  };
  try {
    await bootstrapAdminKey(services, {
      to: options.adminKeyTo ?? (process.stdout.isTTY ? "terminal" : "file"),
      announce: options.announce ?? ((line) => process.stdout.write(line + "\n")),
    });
    // After the bootstrap: on a fresh data directory the bootstrap organisation exists only from here.
    assertWebhookOrgExists(config, keys.organisations());
  } catch (error) {
    await close();
    throw error;
  }
  const app = createHttpApp(services, [adminRoutes, repositoryRoutes, localRepositoryRoutes, mcpRoutes, webhookRoutes, pullRequestRoutes, searchRoutes, consoleRoutes]);
  await indexer.start(); // resumes jobs a stop or crash interrupted
  reviews.start(); // resumes code reviews a stop or crash interrupted

  return { app, services, fetch: app.fetch, close };
}

/**
 * LOUPE_WEBHOOK_ORG must name an organisation that exists: a wrong id would record every delivery,
 * and start its reviews, in an organisation no key can see. Checked once the projections caught up and
 * the bootstrap organisation exists; a configuration error (exit code 2), like a malformed variable.
 */
function assertWebhookOrgExists(config: Config, organisations: readonly { orgId: string; name: string }[]) {
  const wanted = config.webhooks.orgId;
  if (wanted === undefined || organisations.some((o) => o.orgId === wanted)) return;
  const shown = organisations.slice(0, 5).map((o) => `${o.orgId} (${o.name})`).join(", ");
  const more = organisations.length > 5 ? ` and ${organisations.length - 5} more` : "";
  throw new ConfigError([
    {
      variable: "LOUPE_WEBHOOK_ORG",
      message: `no organisation has the id ${JSON.stringify(wanted.slice(0, 100))} (organisations: ${shown}${more}); set it to one of them, or leave it unset to record webhooks into the bootstrap organisation`,
    },
  ]);
}

/**
 * Waits (up to a minute) for the read models to apply the log, so that the first reads see it; not for
 * those whose commits a full disk refuses: they catch up once there is room (src/data-dir-reserve.ts),
 * and a start on a full disk serves reads meanwhile.
 */
async function catchUp(runner: ProjectionRunner, head: number, diskFull: () => boolean, logger: Logger) {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    if (await runner.waitForPosition(head, 1_000)) return;
    const lagging = (await runner.status()).filter((s) => s.checkpoint < head);
    if (diskFull() && lagging.every((s) => s.state === "failed")) {
      logger.warn({ readModels: lagging.map((s) => s.name), head }, "read models behind the log: the data directory refuses their writes (free space there); they catch up once there is room");
      return;
    }
  }
}

/**
 * The first start creates an organisation and an admin key. With LOUPE_API_KEY set, that key is
 * registered (by hash); otherwise a key is generated and handed over once, never through the logs: on
 * a terminal it is printed there, else it is written to `<dataDir>/admin-key` (mode 0600) and the log
 * says where.
 */
async function bootstrapAdminKey({ config, keys, logger }: Services, delivery: { to: "terminal" | "file"; announce: (line: string) => void }) {
  const context = { orgId: "system", actor: "system", correlationId: ulid(), causationId: null };
  if (config.bootstrapApiKey && keys.findByHash(config.bootstrapApiKey)) return;
  if (!config.bootstrapApiKey && keys.hasAnyKey()) return;
  const organisation = keys.organisations()[0] ?? (await keys.createOrganisation("default", context));
  const input = { orgId: organisation.orgId, name: "bootstrap admin", role: "admin" as const, bootstrap: true };
  if (config.bootstrapApiKey) {
    await keys.issueWithSecret(config.bootstrapApiKey, input, context);
    logger.info({ orgId: organisation.orgId }, "registered LOUPE_API_KEY as the bootstrap admin key");
    return;
  }
  const { info, key } = await keys.issue(input, context);
  if (delivery.to === "terminal") {
    logger.info({ orgId: organisation.orgId, keyId: info.keyId }, "created the bootstrap admin key (printed on the terminal)");
    delivery.announce(`Admin API key (shown once, store it now): ${key}`);
    return;
  }
  const file = resolve(config.dataDir, ADMIN_KEY_FILE);
  writeSecretFile(file, key + "\n");
  logger.warn(
    { orgId: organisation.orgId, keyId: info.keyId, file },
    `created the bootstrap admin key and wrote it to ${file} (mode 0600): store it elsewhere, then delete the file, or set LOUPE_API_KEY`,
  );
}

/** File name of a generated bootstrap admin key in the data directory (only when stdout is not a terminal). */
export const ADMIN_KEY_FILE = "admin-key";

/** Writes a file only its owner can read: created with mode 0600, and narrowed again if it existed. */
function writeSecretFile(file: string, content: string) {
  const fd = openSync(file, "w", 0o600);
  try {
    fchmodSync(fd, 0o600);
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
}

export type Loupe = Awaited<ReturnType<typeof createLoupe>>;
