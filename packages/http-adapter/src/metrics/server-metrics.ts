/**
 * The server's Prometheus metrics (prom-client). Core only reports through `MetricsObserver` and
 * the numbers it offers for a scrape; the names, labels and buckets are decided here, once.
 */
import { countSchedulerBacklog, type Ctx, type MetricsObserver, queueMetrics } from '@teamchat/core';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

export interface ServerMetricsOptions {
  /**
   * The database's size in bytes, read at each scrape (the CLI gives the SQLite file's size, or
   * PostgreSQL's `pg_database_size`); without it the gauge is not exported.
   */
  databaseSizeBytes?: () => Promise<number> | number;
  /** prom-client's process and Node.js metrics (CPU, memory, event loop lag, GC); default true. */
  processMetrics?: boolean;
}

/** The registry and the hooks that fill it. */
export interface ServerMetrics {
  readonly registry: Registry;
  /** What `createContext({ metrics })` takes: core's sends and storage timings. */
  readonly observer: MetricsObserver;
  /** One answered request: `route` is the route table's pattern, null when none matched. */
  observeRequest(method: string, route: string | null, status: number, seconds: number): void;
  /** The context whose queues and scheduler the gauges read when scraped (`serve` calls it). */
  watch(ctx: Ctx): void;
}

/** Request durations run from a millisecond to a long-poll's minute and more. */
const REQUEST_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
/** Storage work is sub-millisecond to, at worst, seconds. */
const STORAGE_BUCKETS = [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** Methods kept as a label; anything else is `OTHER`, so a client cannot add label values at will. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export function createServerMetrics(options: ServerMetricsOptions = {}): ServerMetrics {
  const registry = new Registry();
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry });
  let watched: Ctx | undefined;

  const requests = new Counter({
    name: 'teamchat_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const requestSeconds = new Histogram({
    name: 'teamchat_http_request_duration_seconds',
    help: 'Time from a request to the end of its answer, by method and route pattern (GET /api/v1/events includes the long-poll hold).',
    labelNames: ['method', 'route'] as const,
    buckets: REQUEST_BUCKETS,
    registers: [registry],
  });
  const messagesSent = new Counter({
    name: 'teamchat_messages_sent_total',
    help: 'Messages sent (committed), by type: stream or private.',
    labelNames: ['type'] as const,
    registers: [registry],
  });
  // Both series exist from the start, so that a rate over them is defined before the first send.
  for (const type of ['stream', 'private']) messagesSent.inc({ type }, 0);
  const transactionSeconds = new Histogram({
    name: 'teamchat_storage_transaction_duration_seconds',
    help: 'Write transactions, from the call to the answer (waiting for the write lock included).',
    buckets: STORAGE_BUCKETS,
    registers: [registry],
  });
  const commitSeconds = new Histogram({
    name: 'teamchat_storage_commit_duration_seconds',
    help: "Committed write transactions, from the end of the transaction's work to its durable commit.",
    buckets: STORAGE_BUCKETS,
    registers: [registry],
  });
  const readSeconds = new Histogram({
    name: 'teamchat_storage_read_duration_seconds',
    help: 'Read-only snapshots, from the call to the answer.',
    buckets: STORAGE_BUCKETS,
    registers: [registry],
  });
  new Gauge({
    name: 'teamchat_event_queues',
    help: 'Event queues registered in this process.',
    registers: [registry],
    collect() {
      if (watched) this.set(queueMetrics(watched).queues);
    },
  });
  new Gauge({
    name: 'teamchat_long_polls_waiting',
    help: 'GET /api/v1/events requests waiting for an event now.',
    registers: [registry],
    collect() {
      if (watched) this.set(queueMetrics(watched).waitingPolls);
    },
  });
  new Gauge({
    name: 'teamchat_scheduler_backlog',
    help: 'Scheduled messages and reminders already due but not yet delivered, by kind.',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      if (!watched) return;
      // A scrape while the store is closing leaves the last figures rather than failing.
      const backlog = await countSchedulerBacklog(watched).catch(() => undefined);
      if (!backlog) return;
      this.set({ kind: 'scheduled_message' }, backlog.scheduledMessages);
      this.set({ kind: 'reminder' }, backlog.reminders);
    },
  });
  const databaseSize = options.databaseSizeBytes;
  if (databaseSize) {
    new Gauge({
      name: 'teamchat_database_size_bytes',
      help: 'Size of the database (the SQLite file with its WAL, or pg_database_size).',
      registers: [registry],
      async collect() {
        const bytes = await Promise.resolve()
          .then(databaseSize)
          .catch(() => undefined);
        if (bytes !== undefined) this.set(bytes);
      },
    });
  }

  return {
    registry,
    observer: {
      messageSent: (kind) => messagesSent.inc({ type: kind }),
      storageTransaction(seconds, commit) {
        transactionSeconds.observe(seconds);
        if (commit !== undefined) commitSeconds.observe(commit);
      },
      storageRead: (seconds) => readSeconds.observe(seconds),
    },
    observeRequest(method, route, status, seconds) {
      const methodLabel = METHODS.has(method) ? method : 'OTHER';
      const routeLabel = route ?? 'unmatched';
      requests.inc({ method: methodLabel, route: routeLabel, status: String(status) });
      requestSeconds.observe({ method: methodLabel, route: routeLabel }, seconds);
    },
    watch(ctx) {
      watched = ctx;
    },
  };
}
