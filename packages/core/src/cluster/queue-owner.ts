/**
 * Which node owns an event queue: its ID is `<nodeId>.<uuid>`. Clients treat queue IDs as
 * opaque strings; a load balancer can route `GET /api/v1/events?queue_id=…` on the part before
 * the first '.', which needs no escaping in a query string.
 */
import type { Ctx } from '../context.js';

const SEPARATOR = '.';

/** A queue ID naming its owner, `nodeId` (none in a single process: the bare UUID). */
export function queueIdOf(nodeId: string | undefined, uuid: string): string {
  return nodeId === undefined ? uuid : `${nodeId}${SEPARATOR}${uuid}`;
}

/** The node a queue ID names, or null when it names none. */
export function nodeOfQueue(queueId: string): string | null {
  const end = queueId.indexOf(SEPARATOR);
  return end > 0 ? queueId.slice(0, end) : null;
}

/** Where a request for a queue must be answered. */
export type QueueRoute =
  /** Here: this process owns it, or it names no other node (the registry answers for unknown queues). */
  | { kind: 'local' }
  /** At another live node, reached at `url`. */
  | { kind: 'remote'; nodeId: string; url: string }
  /** At a node that is gone: the queue went with it (BAD_EVENT_QUEUE_ID, the client re-registers). */
  | { kind: 'gone'; nodeId: string };

/**
 * The rule for GET and DELETE /events: a queue is served by its owner. A request already
 * forwarded by another node (`forwarded`) is answered here whatever it names, so that two nodes
 * that disagree about the directory cannot bounce a request between them.
 */
export async function routeQueue(ctx: Ctx, queueId: string, forwarded = false): Promise<QueueRoute> {
  const cluster = ctx.cluster;
  const owner = nodeOfQueue(queueId);
  if (!cluster || forwarded || owner === null || owner === cluster.nodeId) return { kind: 'local' };
  const url = await cluster.nodes.urlOf(owner);
  return url === null ? { kind: 'gone', nodeId: owner } : { kind: 'remote', nodeId: owner, url };
}
