import { err, ok, type Result } from 'neverthrow';
import { doRegister } from '../actions/events.js';
import type { Ctx } from '../context.js';
import { type ApiError, badRequest } from '../errors.js';
import type { Caller, InputOf } from '../operation.js';
import type { RegisterResponse } from '../state/register-response.js';
import { badEventQueueId } from './queues.js';
import type { QueuedEvent } from './types.js';
import type { HeartbeatEvent } from './union/realm.js';

/** What an event stream yields: every event of the union but heartbeats, with its queue `id`. */
export type StreamedEvent = Exclude<QueuedEvent, HeartbeatEvent & { id: number }>;

/** An in-process event subscription: the register snapshot, then the events that follow. */
export interface EventStream extends AsyncIterable<StreamedEvent> {
  queueId: string;
  /** The POST /register response the stream started from. */
  state: RegisterResponse;
  /**
   * Why the iteration ended, when it was not `close()` or shutdown: BAD_EVENT_QUEUE_ID when the
   * queue was ended (over its bounds, or the user registered too many). Events may have been
   * missed since: open a new stream, whose snapshot has them.
   */
  readonly error: ApiError | null;
  /** Ends the iteration and discards the queue. */
  close(): void;
}

/**
 * Subscribes to a user's events without HTTP: registers a queue with the POST /register
 * parameters (same filtering: event_types, narrow, client capabilities) and long-polls it.
 * Heartbeats, which only keep HTTP connections alive, are not yielded. The iteration ends on
 * `close()`, when the queue is deleted or ended (then `error` says so), or when the server
 * shuts down. Events committed after it opened are never missed, however late iteration starts.
 *
 * ```ts
 * const opened = await openEventStream(ctx, { realm, user }, { event_types: ['message', 'reaction'] });
 * if (opened.isErr()) throw new Error(opened.error.msg);
 * for await (const event of opened.value) {
 *   if (event.type === 'message') console.log(event.message.sender_full_name, event.message.content);
 * }
 * // Here the stream was closed, the server shut down, or opened.value.error says why it ended.
 * ```
 */
export async function openEventStream(
  ctx: Ctx,
  caller: Caller,
  params: InputOf<typeof doRegister> = {},
): Promise<Result<EventStream, ApiError>> {
  const registered = await doRegister(ctx, caller, params);
  if (registered.isErr()) return err(registered.error);
  const state = registered.value;
  const queueId = state.queue_id;
  if (!queueId || !caller.user) return err(badRequest('An event stream needs a logged-in user'));
  // Another registration of the same user may have ended it already (maxQueuesPerUser).
  const found = ctx.queues.get(queueId, caller.user.id);
  if (found.isErr()) return err(found.error);
  const queue = found.value;
  let closed = false;
  let error: ApiError | null = null;
  // Taken at registration, not when iteration starts: events committed in between (the
  // caller's own operations, typically) belong to the stream too.
  let lastEventId = queue.lastEventId;

  async function* events(): AsyncGenerator<StreamedEvent> {
    while (!closed && ctx.queues.isLive(queue)) {
      const polled = await ctx.queues.poll(queue, lastEventId, false);
      if (polled.isErr()) break;
      for (const event of polled.value) {
        lastEventId = event.id;
        if (event.type !== 'heartbeat' && !closed) yield event;
      }
    }
    // Not closed here nor shut down: the queue is gone (ended, or its user deactivated).
    if (!closed && !ctx.queues.isShutDown) error = badEventQueueId(queue.id);
  }

  return ok({
    queueId,
    state,
    [Symbol.asyncIterator]: events,
    get error() {
      return error;
    },
    close() {
      closed = true;
      ctx.queues.delete(queue);
    },
  });
}
