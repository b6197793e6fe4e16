import { err, ok, type Result } from 'neverthrow';
import { doRegister } from '../actions/events.js';
import type { Ctx } from '../context.js';
import { type ApiError, badRequest } from '../errors.js';
import type { Caller } from '../operation.js';
import type { QueuedEvent } from './types.js';

/** An in-process event subscription: the register snapshot, then the events that follow. */
export interface EventStream extends AsyncIterable<QueuedEvent> {
  queueId: string;
  /** The POST /register response the stream started from. */
  state: Record<string, unknown>;
  /** Ends the iteration and discards the queue. */
  close(): void;
}

/**
 * Subscribes to a user's events without HTTP: registers a queue with the POST /register
 * parameters (same filtering: event_types, narrow, client capabilities) and long-polls it.
 * Heartbeats, which only keep HTTP connections alive, are not yielded. The iteration ends on
 * `close()`, when the queue is deleted, or when the server shuts down.
 */
export async function openEventStream(ctx: Ctx, caller: Caller, params: Record<string, unknown> = {}): Promise<Result<EventStream, ApiError>> {
  const registered = await doRegister(ctx, caller, params);
  if (registered.isErr()) return err(registered.error);
  const state = registered.value;
  const queueId = state.queue_id as string | null;
  if (!queueId || !caller.user) return err(badRequest('An event stream needs a logged-in user'));
  const queue = ctx.queues.get(queueId, caller.user.id)._unsafeUnwrap();
  let closed = false;

  async function* events(): AsyncGenerator<QueuedEvent> {
    let lastEventId = queue.lastEventId;
    while (!closed && ctx.queues.isLive(queue)) {
      const polled = await ctx.queues.poll(queue, lastEventId, false);
      if (polled.isErr()) return;
      for (const event of polled.value) {
        lastEventId = event.id;
        if (event.type !== 'heartbeat' && !closed) yield event;
      }
    }
  }

  return ok({
    queueId,
    state,
    [Symbol.asyncIterator]: events,
    close() {
      closed = true;
      ctx.queues.delete(queue);
    },
  });
}
