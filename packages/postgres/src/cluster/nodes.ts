/**
 * The directory of live nodes: each node upserts its row every `heartbeatMs`; a node whose
 * heartbeat is older than `timeoutMs` is gone, and so are its queues.
 */
import type { Logger, NodeDirectory } from '@teamchat/core/internal';
import type { Sql } from 'postgres';

export interface NodeHeartbeat {
  directory: NodeDirectory;
  /** Sets the URL the other nodes reach this one at (once its server listens). */
  announce(url: string | null): Promise<void>;
  /** Stops the heartbeat and removes this node's row: its queues are gone at once for the others. */
  leave(): Promise<void>;
}

/** How long a lookup's answer is reused: every forwarded poll would otherwise cost a query. */
const LOOKUP_CACHE_MS = 1000;

export async function startNodeHeartbeat(sql: Sql, nodeId: string, logger: Logger, heartbeatMs: number, timeoutMs: number): Promise<NodeHeartbeat> {
  let url: string | null = null;
  const beat = () =>
    sql`INSERT INTO teamchat_cluster_nodes (node_id, url) VALUES (${nodeId}, ${url})
        ON CONFLICT (node_id) DO UPDATE SET url = excluded.url, heartbeat_at = now()`;
  // A node restarted under the same ID starts afresh: the queues of its previous life are gone.
  await sql`INSERT INTO teamchat_cluster_nodes (node_id, url) VALUES (${nodeId}, null)
            ON CONFLICT (node_id) DO UPDATE SET url = null, started_at = now(), heartbeat_at = now()`;
  const timer = setInterval(() => void beat().catch((error: unknown) => logger.warn({ err: error }, 'cluster heartbeat failed')), heartbeatMs);
  timer.unref();

  const cache = new Map<string, { url: string | null; at: number }>();
  const directory: NodeDirectory = {
    async urlOf(id) {
      const cached = cache.get(id);
      if (cached && Date.now() - cached.at < LOOKUP_CACHE_MS) return cached.url;
      const [row] = await sql<{ url: string | null }[]>`
        SELECT url FROM teamchat_cluster_nodes
        WHERE node_id = ${id} AND heartbeat_at > now() - ${timeoutMs} * interval '1 millisecond'`;
      const found = row?.url ?? null;
      cache.set(id, { url: found, at: Date.now() });
      if (cache.size > 1000) cache.delete(cache.keys().next().value!);
      return found;
    },
  };
  return {
    directory,
    async announce(announced) {
      url = announced;
      await beat();
    },
    async leave() {
      clearInterval(timer);
      await sql`DELETE FROM teamchat_cluster_nodes WHERE node_id = ${nodeId}`;
    },
  };
}

/** Forgets nodes silent for `olderThanMs` (rows of nodes that died without leaving). */
export async function forgetDeadNodes(sql: Sql, olderThanMs: number): Promise<void> {
  await sql`DELETE FROM teamchat_cluster_nodes WHERE heartbeat_at < now() - ${olderThanMs} * interval '1 millisecond'`;
}
