/**
 * What a process needs to share a database with other processes of the same server: each is a
 * node with an ID, its queues are named after it, events cross between nodes, housekeeping
 * runs on one node at a time, and a request for another node's queue finds that node.
 * `@teamchat/postgres` provides a member over PostgreSQL; cluster/memory.ts one for several
 * contexts in one process (tests, and the reference for what each method must do).
 */
import type { EventTransport } from '../events/transport.js';
import type { LoginAttemptFeed } from '../auth/login-limits.js';
import type { RateLimiter } from '../rate-limits/limiter.js';

export interface ClusterMember {
  /**
   * This process's node ID: the prefix of its queue IDs (cluster/queue-owner.ts), so a load
   * balancer can route a poll to its owner without asking anyone. Lowercase letters, digits
   * and '-', at most 32 characters.
   */
  readonly nodeId: string;
  readonly events: EventTransport;
  readonly nodes: NodeDirectory;
  readonly jobs: JobLock;
  /** Login attempts counted by every node's limiter; absent: each node counts its own. */
  readonly loginAttempts?: LoginAttemptFeed;
  /** Request counts of the API rate limits, shared by every node; absent: each node counts its own. */
  readonly rateLimiter?: RateLimiter;
  /** Leaves the cluster: stops listening and heartbeats (the context closes its storage after). */
  close(): Promise<void>;
}

/** The live nodes and where each can be reached by the others. */
export interface NodeDirectory {
  /**
   * The internal base URL of a live node (`http://10.0.0.2:9991`), or null when the node is
   * unknown or gone: it has not sent a heartbeat within the directory's timeout.
   */
  urlOf(nodeId: string): Promise<string | null>;
}

/** Housekeeping that must run on one node at a time, and not more often than its interval. */
export interface JobLock {
  /**
   * Runs `job` unless another node is running the job named `name` now or finished it less
   * than `intervalMs` ago (when `intervalMs` > 0). Resolves with whether it ran. A node that
   * dies while running the job releases it (the lock lives as long as its database session).
   */
  runExclusive(name: string, intervalMs: number, job: () => Promise<unknown>): Promise<boolean>;
}

const NODE_ID = /^[a-z0-9][a-z0-9-]{0,31}$/;

/** Whether `nodeId` can name a node (it becomes part of queue IDs and routing rules). */
export function isValidNodeId(nodeId: string): boolean {
  return NODE_ID.test(nodeId);
}
