import type { Config } from "./config.ts";
import type { EventStore } from "./eventstore/port.ts";
import type { ReadStore } from "./readstore/port.ts";
import type { ProjectionRunner } from "../projections/runner.ts";
import type { KeyService } from "./features/access/service.ts";
import type { Logger } from "./logging.ts";
import type { Searcher } from "./retrieval/search.ts";
import type { CodeIndex } from "./codeindex/port.ts";
import type { GitMirrors } from "./git/mirrors.ts";
import type { Indexer } from "./features/repositories/indexer.ts";
import type { Metrics } from "./metrics.ts";
import type { Hosts } from "./hosts/index.ts";
import type { PullRequestService } from "./features/pull-requests/service.ts";
import type { ReviewService } from "./features/code-reviews/service.ts";
import type { CustomContextService } from "./features/custom-context/service.ts";
import type { LocalRepositories } from "./features/repositories/local.ts";
import type { CodeSearchService } from "./features/code-search/service.ts";
import type { QuerySessionService } from "./features/query-sessions/service.ts";
import type { Models } from "./models/config.ts";
import type { AuditService } from "./audit/service.ts";
import type { OperationsService } from "./features/operations/service.ts";

/** What the three faces (HTTP, JSON-RPC, GraphQL) are given: read models and command services. */
export type Services = {
  config: Config;
  logger: Logger;
  eventStore: EventStore;
  readStore: ReadStore;
  runner: ProjectionRunner;
  keys: KeyService;
  /** Prometheus metrics (GET /metrics); services may call `metrics.recordIndexedBytes`, expose `stats()`. */
  metrics: Metrics;
  /** Git repositories on the server's disk that may be indexed by path (LOUPE_LOCAL_ROOTS; src/features/repositories/local.ts). */
  localRepositories: LocalRepositories;
  /** Chunks of every indexed repository (embedded under <dataDir>/codeindex, or Elasticsearch). */
  codeIndex: CodeIndex;
  /** Search over the code index (worker threads over the embedded index). */
  searcher: Searcher;
  /** Bare mirrors under <dataDir>/mirrors (src/git/mirrors.ts). */
  mirrors: GitMirrors;
  /** Repository indexing jobs and status (src/features/repositories/indexer.ts). */
  indexer: Indexer;
  /** Git hosts (webhook verification/parsing, REST) behind neutral types. */
  hosts: Hosts;
  /** The chat model and the embedder (null when not configured), built once for the process. */
  models: Models;
  /** Which repositories a request may search, and the search (src/features/code-search/). */
  codeSearch: CodeSearchService;
  /** The event log, entity histories and read models now or as of a past time (src/audit/). */
  audit: AuditService;
  /** Searches and questions recorded as session turns (src/features/query-sessions/). */
  querySessions: QuerySessionService;
  /** Pull requests: webhooks, backfill, list/get/comments/comment search (src/features/pull-requests/). */
  pullRequests: PullRequestService;
  /** Code reviews: trigger, list/get, the in-process review worker (src/features/code-reviews/). */
  reviews: ReviewService;
  /** Custom context: list/get/search/create/status, learned SUGGESTED patterns (src/features/custom-context/). */
  customContext: CustomContextService;
  /** Instance-wide operations of the bootstrap organisation's admins: projection rebuilds, recorded (src/features/operations/). */
  operations: OperationsService;
};
