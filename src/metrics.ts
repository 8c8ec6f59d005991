import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { EventStore, NewEvent } from "./eventstore/port.ts";
import type { ProjectionRunner } from "../projections/runner.ts";
import type { Logger } from "./logging.ts";

/**
 * Prometheus metrics (own Registry, served at GET /metrics). Names:
 *
 * - loupe_http_requests_total{method,route,status}       requests, by route pattern (never the raw path)
 * - loupe_http_request_duration_seconds{method,route}    latency histogram
 * - loupe_eventstore_append_duration_seconds{outcome}    event store append latency
 * - loupe_events_appended_total{type}                    events appended, by type
 * - loupe_indexing_files_total                           files indexed (from RepositoryFilesIndexed events)
 * - loupe_indexing_bytes_total                           source bytes read for indexing (recordIndexedBytes)
 * - loupe_code_searches_total                            code searches run (every face's searches and questions)
 * - loupe_queue_depth{source}                            jobs waiting, per source exposing stats()
 * - loupe_queue_in_flight{source}                        jobs running, per source
 * - loupe_worker_pool_size{source} / _busy{source} / _utilisation{source}
 * - loupe_projection_lag_events{projection}              head position - projection checkpoint
 * - loupe_projection_checkpoint{projection}
 * - loupe_projection_failed{projection}                  1 when the projection is failed
 * - loupe_process_* / loupe_nodejs_*                     prom-client's default process metrics
 */

/**
 * What a service may expose for the metrics (duck-typed: `stats()` on a service in the bundle, or a
 * source added with `addSource`). Every field is optional; non-numbers are ignored.
 */
export type OperationalStats = {
  /** Jobs waiting to run. */
  queueDepth?: number;
  /** Jobs running now. */
  inFlight?: number;
  /** Worker pool: threads in the pool, busy threads, utilisation 0..1 (e.g. piscina's `utilization`). */
  workers?: { size?: number; busy?: number; utilisation?: number };
};

export type StatsSource = () => OperationalStats | undefined | Promise<OperationalStats | undefined>;

export type Metrics = ReturnType<typeof createMetrics>;

const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

export function createMetrics(options: { defaultMetrics?: boolean } = {}) {
  const registry = new Registry();
  if (options.defaultMetrics !== false) {
    try {
      collectDefaultMetrics({ register: registry, prefix: "loupe_" });
    } catch {
      // Some runtimes lack a process metric; the service's own metrics still work.
    }
  }

  const httpRequests = new Counter({
    name: "loupe_http_requests_total",
    help: "HTTP requests handled, by method, route pattern and status",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const httpDuration = new Histogram({
    name: "loupe_http_request_duration_seconds",
    help: "HTTP request latency by method and route pattern",
    labelNames: ["method", "route"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const appendDuration = new Histogram({
    name: "loupe_eventstore_append_duration_seconds",
    help: "Latency of event store appends",
    labelNames: ["outcome"] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
    registers: [registry],
  });
  const eventsAppended = new Counter({
    name: "loupe_events_appended_total",
    help: "Events appended, by type",
    labelNames: ["type"] as const,
    registers: [registry],
  });
  const filesIndexed = new Counter({
    name: "loupe_indexing_files_total",
    help: "Files indexed (new and reused), counted from RepositoryFilesIndexed events",
    registers: [registry],
  });
  const bytesIndexed = new Counter({
    name: "loupe_indexing_bytes_total",
    help: "Source bytes read for indexing",
    registers: [registry],
  });

  const codeSearches = new Counter({
    name: "loupe_code_searches_total",
    help: "Code searches run over the code index (searches, and the retrieval of questions), from every face",
    registers: [registry],
  });

  const sources = new Map<string, StatsSource>();
  const bundles: Record<string, unknown>[] = [];
  /** Explicit sources, plus every service of the registered bundles with a `stats()` method (looked up at scrape time). */
  const allSources = () => {
    const all = new Map<string, StatsSource>();
    for (const bundle of bundles) {
      for (const [name, service] of Object.entries(bundle)) {
        const stats = (service as { stats?: unknown } | null)?.stats;
        if (typeof stats === "function") all.set(name, () => (stats as () => OperationalStats).call(service));
      }
    }
    for (const [name, source] of sources) all.set(name, source);
    return all;
  };
  const collected = async () => {
    const out: { name: string; stats: OperationalStats }[] = [];
    for (const [name, source] of allSources()) {
      try {
        const stats = await source();
        if (stats && typeof stats === "object") out.push({ name, stats });
      } catch {
        // A failing source must not break the scrape.
      }
    }
    return out;
  };
  const sourceGauge = (name: string, help: string, pick: (s: OperationalStats) => number | undefined) =>
    new Gauge({
      name,
      help,
      labelNames: ["source"] as const,
      registers: [registry],
      async collect() {
        this.reset();
        for (const { name: source, stats } of await collected()) {
          const value = num(pick(stats));
          if (value !== undefined) this.set({ source }, value);
        }
      },
    });
  sourceGauge("loupe_queue_depth", "Jobs waiting, per source", (s) => s.queueDepth);
  sourceGauge("loupe_queue_in_flight", "Jobs running, per source", (s) => s.inFlight);
  sourceGauge("loupe_worker_pool_size", "Worker threads in the pool, per source", (s) => s.workers?.size);
  sourceGauge("loupe_worker_pool_busy", "Busy worker threads, per source", (s) => s.workers?.busy);
  sourceGauge("loupe_worker_pool_utilisation", "Worker pool utilisation 0..1, per source", (s) => {
    const w = s.workers;
    if (!w) return undefined;
    if (num(w.utilisation) !== undefined) return w.utilisation;
    const size = num(w.size);
    const busy = num(w.busy);
    return size && busy !== undefined ? busy / size : undefined;
  });

  let runner: ProjectionRunner | null = null;
  const projectionGauge = (name: string, help: string, pick: (s: Awaited<ReturnType<ProjectionRunner["status"]>>[number]) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ["projection"] as const,
      registers: [registry],
      async collect() {
        this.reset();
        if (!runner) return;
        for (const status of await runner.status().catch(() => [])) this.set({ projection: status.name }, pick(status));
      },
    });
  projectionGauge("loupe_projection_lag_events", "Events between the log head and the projection's checkpoint", (s) => s.lag);
  projectionGauge("loupe_projection_checkpoint", "Global position the projection has handled", (s) => s.checkpoint);
  projectionGauge("loupe_projection_failed", "1 when the projection is failed", (s) => (s.state === "failed" ? 1 : 0));

  return {
    registry,
    contentType: registry.contentType,
    render: () => registry.metrics(),
    observeRequest(method: string, route: string, status: number, seconds: number) {
      httpRequests.inc({ method, route, status: String(status) });
      httpDuration.observe({ method, route }, seconds);
    },
    observeAppend(seconds: number, outcome: "ok" | "error", events: readonly NewEvent[]) {
      appendDuration.observe({ outcome }, seconds);
      if (outcome !== "ok") return;
      for (const event of events) {
        eventsAppended.inc({ type: event.type });
        if (event.type === "RepositoryFilesIndexed") {
          const files = event.data.files;
          if (Array.isArray(files)) filesIndexed.inc(files.length);
        }
      }
    },
    /** For the indexer: source bytes it read (blob sizes) for the files it indexed. */
    recordIndexedBytes(bytes: number) {
      if (bytes > 0) bytesIndexed.inc(bytes);
    },
    /** For the code search: one search run over the code index. */
    recordSearch() {
      codeSearches.inc();
    },
    setRunner(value: ProjectionRunner) {
      runner = value;
    },
    /** Adds (or replaces) a source of queue and worker pool figures. */
    addSource(name: string, source: StatsSource) {
      sources.set(name, source);
    },
    /** Every service of the bundle with a `stats()` method becomes a source (looked up at each scrape). */
    addSourcesFrom(bundle: Record<string, unknown>) {
      bundles.push(bundle);
    },
  };
}

/**
 * Event store decorator: times every append (histogram), counts events by type, and logs the
 * correlation id of what it appended (the request id when a request appended it: the log context
 * adds the request id to the line too). Event data is never logged.
 */
export function instrumentEventStore(inner: EventStore, metrics: Metrics, logger: Logger): EventStore {
  return {
    ...inner,
    appendToStream: async (streamName, events, options) => {
      const started = performance.now();
      try {
        const result = await inner.appendToStream(streamName, events, options);
        metrics.observeAppend((performance.now() - started) / 1000, "ok", events);
        const correlationIds = [...new Set(events.map((e) => e.metadata.correlationId))];
        const bulk = events.every((e) => e.type === "RepositoryFilesIndexed");
        logger[bulk ? "debug" : "info"](
          {
            correlationId: correlationIds.length === 1 ? correlationIds[0] : correlationIds,
            stream: streamName,
            eventTypes: [...new Set(events.map((e) => e.type))],
            count: events.length,
            lastPosition: result.lastPosition,
          },
          "events appended",
        );
        return result;
      } catch (error) {
        metrics.observeAppend((performance.now() - started) / 1000, "error", events);
        throw error;
      }
    },
    readStream: (...args) => inner.readStream(...args),
    readAll: (...args) => inner.readAll(...args),
    readAllBackwards: (...args) => inner.readAllBackwards(...args),
    subscribeToAll: (...args) => inner.subscribeToAll(...args),
    ...(inner.watchAppends ? { watchAppends: (listener: (lastPosition: number) => void) => inner.watchAppends!(listener) } : {}),
    headPosition: () => inner.headPosition(),
    close: () => inner.close(),
  };
}
