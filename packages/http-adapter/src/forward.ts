/**
 * Forwarding GET and DELETE /events to the node that owns the queue (cluster/queue-owner.ts
 * holds the rule; this is the transport's part). The owner authenticates the request itself:
 * the client's credentials travel with it. A load balancer that routes on the queue ID's prefix
 * (README) saves this hop; forwarding keeps any other routing correct.
 */
import { badEventQueueId, type Ctx, routeQueue } from '@teamchat/core/internal';
import type { Params } from './params.js';
import { failure, fastResponse } from './respond.js';

/** Marks a request one node forwarded to another: it is answered where it lands, never forwarded again. */
export const FORWARDED_BY_HEADER = 'x-teamchat-forwarded-by';

/** Request headers the owner needs to answer as if the client had called it. */
const PASSED_HEADERS = ['authorization', 'user-agent', 'accept', 'accept-language'];

/**
 * The owner's answer when the request names another node's queue, a BAD_EVENT_QUEUE_ID answer
 * when that node is gone (the queue went with it: the client re-registers), or null when the
 * request is for this node.
 */
export async function answerAtQueueOwner(ctx: Ctx, request: Request, params: Params): Promise<Response | null> {
  const queueId = params.queue_id;
  if (!ctx.cluster || typeof queueId !== 'string') return null;
  const route = await routeQueue(ctx, queueId, request.headers.has(FORWARDED_BY_HEADER));
  if (route.kind === 'local') return null;
  if (route.kind === 'gone') return failure(badEventQueueId(queueId));
  const headers = new Headers({ [FORWARDED_BY_HEADER]: ctx.cluster.nodeId });
  for (const name of PASSED_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const path = new URL(request.url).pathname;
  // Every parameter (query and body alike) travels in the query string: both methods read it.
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (typeof value === 'string') query.append(name, value);
  try {
    const answer = await fetch(`${route.url}${path}?${query}`, { method: request.method, headers, signal: request.signal, redirect: 'manual' });
    const outHeaders: Record<string, string> = {};
    for (const name of ['content-type', 'cache-control', 'www-authenticate', 'retry-after']) {
      const value = answer.headers.get(name);
      if (value !== null) outHeaders[name] = value;
    }
    return fastResponse(await answer.text(), { status: answer.status, headers: outHeaders });
  } catch (error) {
    // The client went away: nobody reads this answer.
    if (request.signal.aborted) throw error;
    // The owner stopped answering between its last heartbeat and now: its queues are gone.
    ctx.logger.warn({ err: error, queueId, nodeId: route.nodeId }, 'forwarding a poll to its queue owner failed');
    return failure(badEventQueueId(queueId));
  }
}
