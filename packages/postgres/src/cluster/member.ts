/**
 * A node of a cluster of `teamchat serve` processes on one PostgreSQL database: the
 * ClusterMember core takes (`createContext({ cluster })`), over a connection pool of its own
 * beside the storage driver's (LISTEN needs a dedicated session, and housekeeping locks hold one).
 */
import { randomBytes } from 'node:crypto';
import { type ClusterMember, consoleLogger, isValidNodeId, type Logger } from '@teamchat/core/internal';
import postgres, { type Sql } from 'postgres';
import { pruneEvents } from './event-log.js';
import { postgresJobLock } from './jobs.js';
import { postgresLoginAttemptFeed } from './logins.js';
import { forgetDeadNodes, startNodeHeartbeat } from './nodes.js';
import { clusterNames } from './locks.js';
import { ensureClusterSchema } from './schema.js';
import { postgresRateLimiter, pruneRateLimits } from './rate-limits.js';
import { createPostgresEventTransport, type PostgresEventTransport } from './transport.js';

export interface PostgresClusterOptions {
  /** The database the storage driver uses (`postgres://…`). */
  url: string;
  /** The schema of the storage's tables, where the cluster's go too; `public` by default. */
  schema?: string;
  /** This node's ID (see ClusterMember.nodeId); a random one when absent, new at every start. */
  nodeId?: string;
  logger?: Logger;
  /** How long events stay in the log: a node cut off longer than this ends its queues. Default 10 minutes. */
  eventRetentionMs?: number;
  /** How often a node says it is alive. Default 2 s. */
  heartbeatMs?: number;
  /** A node silent this long is gone, with its queues. Default 10 s. */
  nodeTimeoutMs?: number;
}

export interface PostgresClusterMember extends ClusterMember {
  readonly events: PostgresEventTransport;
  /** Tells the other nodes where this one is reached (its internal URL), once it listens. */
  announce(url: string | null): Promise<void>;
}

/** How often the log is pruned (on one node). */
const PRUNE_INTERVAL_MS = 60_000;

/** A random node ID: 8 base-36 characters. */
const randomNodeId = () => BigInt(`0x${randomBytes(6).toString('hex')}`).toString(36).padStart(8, '0').slice(-8);

export async function joinPostgresCluster(options: PostgresClusterOptions): Promise<PostgresClusterMember> {
  const nodeId = options.nodeId ?? randomNodeId();
  if (!isValidNodeId(nodeId)) throw new Error(`invalid node ID '${nodeId}': lowercase letters, digits and '-', at most 32`);
  const logger = options.logger ?? consoleLogger;
  const schema = options.schema ?? 'public';
  const names = clusterNames(schema);
  const sql: Sql = postgres(options.url, {
    max: 4,
    onnotice: () => undefined,
    connection: { application_name: `teamchat-cluster-${nodeId}`, search_path: schema },
  });
  try {
    await sql.unsafe(`CREATE SCHEMA IF NOT EXISTS "${schema.replace(/"/g, '""')}"`);
    await ensureClusterSchema(sql);
    const events = await createPostgresEventTransport(sql, names, nodeId, logger);
    const heartbeat = await startNodeHeartbeat(sql, nodeId, logger, options.heartbeatMs ?? 2000, options.nodeTimeoutMs ?? 10_000);
    const loginAttempts = await postgresLoginAttemptFeed(sql, names.logins, nodeId, logger);
    const jobs = postgresJobLock(sql, names.jobs);
    const retentionMs = options.eventRetentionMs ?? 600_000;
    const prune = setInterval(() => {
      jobs
        .runExclusive('prune the cluster event log', PRUNE_INTERVAL_MS * 0.9, async () => {
          await pruneEvents(sql, retentionMs);
          await forgetDeadNodes(sql, 3_600_000);
          await pruneRateLimits(sql, Date.now());
        })
        .catch((error: unknown) => logger.error({ err: error }, 'pruning the cluster event log failed'));
    }, PRUNE_INTERVAL_MS);
    prune.unref();
    let closing: Promise<void> | undefined;
    return {
      nodeId,
      events,
      nodes: heartbeat.directory,
      jobs,
      loginAttempts,
      rateLimiter: postgresRateLimiter(sql),
      announce: (url) => heartbeat.announce(url),
      close() {
        closing ??= (async () => {
          clearInterval(prune);
          await events.close();
          await loginAttempts.close();
          await heartbeat.leave().catch(() => undefined);
          await sql.end({ timeout: 5 });
        })();
        return closing;
      },
    };
  } catch (error) {
    await sql.end({ timeout: 1 });
    throw error;
  }
}
