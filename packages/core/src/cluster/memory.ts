/**
 * A cluster of contexts in one process, sharing one storage: each member is a node as a
 * separate server process would be, with its own queues, and events, job runs, login
 * attempts and rate-limit counts cross between them as they would through PostgreSQL. Tests use it to check the
 * core's side of clustering without a database server; it is also the plain statement of what
 * each member method must do.
 */
import type { LoginAttemptChange, LoginAttemptFeed } from '../auth/login-limits.js';
import type { PublishedEvent } from '../events/bus.js';
import { EventSequencer, type LoggedEvent } from '../events/sequencer.js';
import type { EventTransport } from '../events/transport.js';
import { memoryRateLimiter } from '../rate-limits/memory.js';
import { silentLogger } from '../logger.js';
import type { Tx } from '../storage/types.js';
import type { ClusterMember, JobLock, NodeDirectory } from './types.js';

export interface MemoryCluster {
  /** A new node; `url` is where the others reach it (null: it serves no HTTP). */
  join(nodeId: string, url?: string | null): ClusterMember;
  /** Sets where the other nodes reach `nodeId` (once its server listens); null: gone. */
  locate(nodeId: string, url: string | null): void;
  /** Every durable event recorded so far, oldest first. */
  readonly log: readonly LoggedEvent[];
  /** Drops recorded events up to `id`, as the PostgreSQL log's pruning does. */
  prune(throughId: number): void;
  /** Makes `nodeId` miss notifications until `reconnect` (a dropped connection). */
  disconnect(nodeId: string): void;
  /** Ends a disconnection: the node catches up from the log, as after a reconnect. */
  reconnect(nodeId: string): Promise<void>;
}

interface Node {
  nodeId: string;
  connected: boolean;
  url: string | null;
  sequencer: EventSequencer | null;
  deliver: ((published: PublishedEvent, logId?: number) => void) | null;
  loginListener: ((change: LoginAttemptChange) => void) | null;
}

export function createMemoryCluster(): MemoryCluster {
  const log: LoggedEvent[] = [];
  let nextId = 1;
  let prunedThroughId = 0;
  const nodes = new Map<string, Node>();
  const running = new Set<string>();
  const finishedAt = new Map<string, number>();
  // One count for the cluster, as PostgreSQL's table is.
  const rateLimiter = memoryRateLimiter();

  const reader = {
    async after(afterId: number, limit: number) {
      return { events: log.filter((e) => e.id > afterId).slice(0, limit), prunedThroughId };
    },
  };
  // Other nodes hear of a commit a turn later, as they would over a network.
  const notifyOthers = (self: Node, id: number) =>
    setImmediate(() => {
      for (const node of nodes.values()) if (node !== self && node.connected) node.sequencer?.notified(id);
    });

  const directory: NodeDirectory = {
    async urlOf(nodeId) {
      return nodes.get(nodeId)?.url ?? null;
    },
  };

  const jobs: JobLock = {
    async runExclusive(name, intervalMs, job) {
      if (running.has(name)) return false;
      const last = finishedAt.get(name);
      if (intervalMs > 0 && last !== undefined && Date.now() - last < intervalMs) return false;
      running.add(name);
      try {
        await job();
        finishedAt.set(name, Date.now());
        return true;
      } finally {
        running.delete(name);
      }
    },
  };

  return {
    log,
    locate(nodeId, url) {
      const node = nodes.get(nodeId);
      if (node) node.url = url;
    },
    disconnect(nodeId) {
      const node = nodes.get(nodeId);
      if (node) node.connected = false;
    },
    async reconnect(nodeId) {
      const node = nodes.get(nodeId);
      if (!node) return;
      node.connected = true;
      await node.sequencer?.catchUp();
    },
    prune(throughId) {
      while (log.length > 0 && log[0]!.id <= throughId) log.shift();
      prunedThroughId = Math.max(prunedThroughId, throughId);
    },
    join(nodeId, url = null) {
      if (nodes.has(nodeId)) throw new Error(`memory cluster: node ${nodeId} already joined`);
      const node: Node = { nodeId, connected: true, url, sequencer: null, deliver: null, loginListener: null };
      nodes.set(nodeId, node);
      const events: EventTransport = {
        stage(tx: Tx, published) {
          // Memory cannot lose an event between commit and append, so the append waits for the
          // commit; after-commit callbacks run in commit order, which keeps IDs in commit order.
          tx.afterCommit(() => {
            const entry = { id: nextId++, published };
            log.push(entry);
            node.sequencer?.committed([entry]);
            notifyOthers(node, entry.id);
          });
        },
        broadcast(published) {
          node.deliver?.(published);
          const copy = structuredClone(published);
          setImmediate(() => {
            for (const other of nodes.values()) if (other !== node) other.deliver?.(copy);
          });
        },
        connect(deliver, lost) {
          node.deliver = deliver;
          // Events cross as JSON would: another node's copy shares nothing with the publisher's.
          node.sequencer = new EventSequencer(reader, (published, id) => deliver(structuredClone(published), id), silentLogger, nextId - 1, lost);
        },
        // A read's snapshot holds exactly the commits whose after-commit steps ran, which append here.
        snapshotEventId() {
          return nextId - 1;
        },
      };
      const loginAttempts: LoginAttemptFeed = {
        send(change) {
          for (const other of nodes.values()) if (other !== node) other.loginListener?.(structuredClone(change));
        },
        receive(listener) {
          node.loginListener = listener;
        },
      };
      return {
        nodeId,
        events,
        nodes: directory,
        // One lock table for the cluster, one object per node (a test may wrap a node's).
        jobs: { runExclusive: (name, intervalMs, job) => jobs.runExclusive(name, intervalMs, job) },
        loginAttempts,
        rateLimiter,
        async close() {
          node.sequencer?.stop();
          nodes.delete(nodeId);
        },
      };
    },
  };
}
