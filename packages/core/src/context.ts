import { randomBytes } from 'node:crypto';
import { LoginLimiter } from './auth/login-limits.js';
import { createPasswordHasher, type PasswordHasher } from './auth/password.js';
import type { ScryptFn } from './auth/scrypt.js';
import { type Clock, systemClock } from './clock.js';
import { DEFAULT_CONFIG, type ServerConfig } from './config.js';
import { createEventBus, type EventBus, type PublishedEvent } from './events/bus.js';
import { QueueRegistry } from './events/queues.js';
import type { Mailer } from './mail/mailer.js';
import { consoleLogger, type Logger } from './logger.js';
import { instrumentStorage } from './metrics/instrumented-storage.js';
import type { MetricsObserver } from './metrics/observer.js';
import type { ClusterMember } from './cluster/types.js';
import { followRemoteEffects } from './cluster/remote-effects.js';
import { flushPresence } from './presence/memory.js';
import type { Storage } from './storage/types.js';
import type { VideoCallProvider } from './video-calls/provider.js';
import type { PushNotifier } from './push/notifier.js';
import { RealmMemo } from './realm/memo.js';
import { type BlobStore, memoryBlobStore } from './uploads/blob-store.js';
import type { OutgoingWebhookOptions } from './bots/outgoing/options.js';
import { stopOutgoingWebhooks } from './bots/outgoing/runner.js';
import type { RateLimiter } from './rate-limits/limiter.js';
import { memoryRateLimiter } from './rate-limits/memory.js';

/** Everything an operation needs besides its actor and input: the first argument of every action. */
export interface Ctx {
  storage: Storage;
  events: EventBus;
  /** Every client's event queue; subscribed to `events`. */
  queues: QueueRegistry;
  clock: Clock;
  config: ServerConfig;
  /** Delivers outbox mail; null keeps mail pending in the outbox. */
  mailer: Mailer | null;
  /** Source of randomness for keys and tokens (replaceable for deterministic tests). */
  randomBytes: (size: number) => Buffer;
  /** Password login attempts per account, address and both (auth/login-limits.ts). */
  loginLimits: LoginLimiter;
  /** Where the API rate limits count requests (rate-limits/); used when `config.rateLimiting` is on. */
  rateLimiter: RateLimiter;
  /** Derives password keys, a bounded number at a time. */
  passwords: PasswordHasher;
  /** The video-call integration the server owner configured; absent or null: none. */
  videoCalls?: VideoCallProvider | null;
  /** The bytes of uploaded files (rows in `storage.attachments` say whose they are). */
  uploads: BlobStore;
  /** How outgoing webhook bots are called (fetch, timeout, limits); the defaults when absent. */
  outgoingWebhooks?: Partial<OutgoingWebhookOptions>;
  /** Delivers push notifications (push/notifier.ts); absent or null: nobody is notified. */
  pushNotifier?: PushNotifier | null;
  /** Where failures nobody can be answered about are reported (background jobs, unexpected exceptions). */
  logger: Logger;
  /** Told what core does, for a metrics exporter (metrics/observer.ts); absent: nothing is measured. */
  metrics?: MetricsObserver;
  /** Values computed from a realm's fields (rendered description, server settings), kept per realm. */
  realmMemo: RealmMemo;
  /**
   * The other processes sharing this context's database (cluster/types.ts); absent in a single
   * process. With it, `events` publishes to every node, and the local bus gets every node's events.
   */
  cluster?: ClusterMember;
}

/** What `createContext` is built from: a storage driver, and everything else optional. */
export interface ContextOptions {
  /**
   * The storage driver. Core loads no driver itself, so that an application pays only for the
   * one it uses: `@teamchat/core/sqlite` has `createSqliteStorage` (and `createSqliteContext`,
   * which opens it for you).
   */
  storage: Storage;
  clock?: Clock;
  config?: Partial<ServerConfig>;
  mailer?: Mailer | null;
  events?: EventBus;
  videoCalls?: VideoCallProvider | null;
  /**
   * Where uploaded files' bytes go; in memory when omitted. A server with durable storage
   * passes a durable one (the CLI: fileSystemBlobStore under its data directory).
   */
  uploads?: BlobStore;
  /** Outgoing webhook delivery: tests inject `fetch` and short timeouts here. */
  outgoingWebhooks?: Partial<OutgoingWebhookOptions>;
  /** Where push notifications go; none by default. */
  pushNotifier?: PushNotifier | null;
  /** Replaces Node's scrypt for password hashing (tests count derivations with it). */
  scrypt?: ScryptFn;
  /** Where core reports failures (pino-compatible); the console when omitted. */
  logger?: Logger;
  /** This process's membership of a cluster of processes on one database (`@teamchat/postgres`). */
  cluster?: ClusterMember;
  /**
   * A metrics exporter to tell what core does (sends, storage timings); with it, `storage` is
   * timed by a wrapper. Absent: nothing is measured and the hot paths pay nothing.
   */
  metrics?: MetricsObserver;
  /**
   * Where rate limits count requests: the cluster's shared limiter when there is one, else one
   * in this process's memory (`memoryRateLimiter`).
   */
  rateLimiter?: RateLimiter;
}

/**
 * Builds the context every operation takes first: the storage driver given, an event bus with
 * its per-client queues, the clock, configuration and the integrations (mail, uploads, push,
 * video calls). It starts no background work: see `startBackgroundWork`.
 *
 * ```ts
 * import { closeContext, createContext } from '@teamchat/core';
 * import { createSqliteStorage } from '@teamchat/core/sqlite';
 *
 * const ctx = createContext({ storage: createSqliteStorage({ filename: 'chat.db' }) });
 * // … call operations with ctx …
 * await closeContext(ctx);
 * ```
 */
export function createContext(options: ContextOptions): Ctx {
  const config = { ...DEFAULT_CONFIG, ...options.config };
  const clock = options.clock ?? systemClock;
  const localEvents = options.events ?? createEventBus();
  const logger = options.logger ?? consoleLogger;
  const cluster = options.cluster;
  const queues = new QueueRegistry(clock, {
    nodeId: cluster?.nodeId,
    snapshotEventId: cluster?.events.snapshotEventId?.bind(cluster.events),
    heartbeatSecs: config.heartbeatSeconds,
    heartbeatJitterSecs: config.heartbeatJitterSeconds,
    gcIntervalSecs: config.queueGcIntervalSeconds,
    maxQueueLength: config.maxQueueLength,
    maxQueueBytes: config.maxQueueBytes,
    maxQueuesPerUser: config.maxQueuesPerUser,
    fanoutBatchSize: config.eventFanoutBatchSize,
    timers: config.timers,
    logger,
  });
  // The shared-log ID of the event the cluster is delivering now, for the queues (see clusterBus).
  const delivering: { logId?: number } = {};
  localEvents.subscribe((published) => queues.deliver(published, delivering.logId));
  const events = cluster ? clusterBus(localEvents, cluster, queues, delivering) : localEvents;
  return {
    storage: options.metrics ? instrumentStorage(options.storage, options.metrics) : options.storage,
    events,
    queues,
    clock,
    config,
    mailer: options.mailer ?? null,
    randomBytes,
    videoCalls: options.videoCalls ?? null,
    uploads: options.uploads ?? memoryBlobStore(),
    outgoingWebhooks: options.outgoingWebhooks,
    pushNotifier: options.pushNotifier ?? null,
    logger,
    realmMemo: new RealmMemo(),
    loginLimits: new LoginLimiter(clock, config, cluster?.loginAttempts),
    rateLimiter: options.rateLimiter ?? cluster?.rateLimiter ?? memoryRateLimiter({ maxKeys: config.rateLimiterMaxKeys }),
    passwords: createPasswordHasher({
      scrypt: options.scrypt,
      concurrency: config.passwordHashConcurrency,
      maxWaiting: config.passwordHashMaxWaiting,
    }),
    ...(cluster ? { cluster } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
  };
}

/**
 * The bus of a cluster member: what is published goes to every node (transient events, see
 * `EventTransport.broadcast`), and subscribers hear every node's events as the local bus gets them.
 */
function clusterBus(local: EventBus, cluster: ClusterMember, queues: QueueRegistry, delivering: { logId?: number }): EventBus {
  const deliver = (published: PublishedEvent, logId?: number) => {
    // A subscriber may publish while this runs (a nested delivery): the outer ID comes back after it.
    const outer = delivering.logId;
    delivering.logId = logId;
    try {
      local.publish(published);
    } finally {
      delivering.logId = outer;
    }
  };
  // Events missed for good leave every queue with a gap its client cannot see: all are ended.
  cluster.events.connect(deliver, () => queues.endAll());
  followRemoteEffects(local, queues);
  return { publish: (published) => cluster.events.broadcast(published), subscribe: (listener) => local.subscribe(listener) };
}

/**
 * Answers every waiting long-poll, stops the queue timer, writes the presence still in memory
 * (presence/memory.ts), then closes the store.
 */
export async function closeContext(ctx: Ctx): Promise<void> {
  ctx.queues.shutdown();
  // Requests to bots in flight are aborted, so that none posts an answer into a closed store.
  await stopOutgoingWebhooks(ctx);
  try {
    await flushPresence(ctx, { closing: true });
  } finally {
    // Stops listening before the store goes: nothing is delivered into queues already answered.
    await ctx.cluster?.close();
    // A failed last flush is reported to the caller, but the store is closed all the same.
    await ctx.storage.close();
  }
}
