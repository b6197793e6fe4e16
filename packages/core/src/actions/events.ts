import { err, ok, type Result } from 'neverthrow';
import { isGuest } from '../access/roles.js';
import type { Ctx } from '../context.js';
import { type ApiError, badRequest, unauthorized } from '../errors.js';
import { withSharedParts } from '../format/json.js';
import type { EventQueue } from '../events/queue.js';
import { CLIENT_CAPABILITIES, type ClientCapability, type QueuedEvent, type QueueOptions } from '../events/types.js';
import { type Actor, type Caller, spectatorOperation, userOperation } from '../operation.js';
import { DeleteQueueParams, GetEventsParams, RegisterParams } from '../schemas/events.js';
import type { RegisterQueueFields, RegisterResponse } from '../state/register-response.js';
import { fetchInitialState, type StateOptions } from '../state/sections.js';
import { botQueueDefaults } from '../bots/queue-defaults.js';
import { notRateLimited } from '../rate-limits/exempt.js';

type RegisterInput = (typeof RegisterParams)['TYPE'];

/** The version and limit keys every register response carries, whatever was fetched. */
function alwaysPresent(ctx: Ctx): Omit<RegisterQueueFields, 'queue_id' | 'last_event_id' | 'idle_queue_timeout_secs'> {
  const { config } = ctx;
  return {
    service_feature_level: config.featureLevel,
    service_version: config.version,
    service_merge_base: config.mergeBase,
    zulip_feature_level: config.featureLevel,
    zulip_version: config.version,
    zulip_merge_base: config.mergeBase,
    max_message_length: config.maxMessageLength,
    max_topic_length: config.maxTopicLength,
    event_queue_longpoll_timeout_seconds: config.eventQueueLongpollTimeoutSeconds,
    server_typing_started_wait_period_milliseconds: config.typingStartedWaitPeriodMs,
    server_typing_stopped_wait_period_milliseconds: config.typingStoppedWaitPeriodMs,
    server_typing_started_expiry_period_milliseconds: config.typingStartedExpiryPeriodMs,
  };
}

function idleTimeout(ctx: Ctx, requested: number | 'mobile' | undefined): number {
  const { config } = ctx;
  if (requested === undefined) return config.idleQueueTimeoutSeconds;
  const seconds = requested === 'mobile' ? config.mobileIdleQueueTimeoutSeconds : requested;
  return Math.min(seconds, config.maxIdleQueueTimeoutSeconds);
}

function queueOptions(ctx: Ctx, params: RegisterInput, clientGravatar: boolean): QueueOptions {
  const capabilities = new Set<ClientCapability>(
    CLIENT_CAPABILITIES.filter((name) => (params.client_capabilities as Record<string, unknown>)[name] === true),
  );
  return {
    eventTypes: params.event_types ? new Set(params.event_types) : null,
    narrow: params.narrow.map((term) =>
      // The object form's `negated` becomes the "-operator" spelling the matcher reads.
      Array.isArray(term) ? ([term[0], String(term[1])] as const) : ([`${term.negated ? '-' : ''}${term.operator}`, String(term.operand)] as const),
    ),
    capabilities,
    clientGravatar,
    applyMarkdown: params.apply_markdown,
    allPublicStreams: params.all_public_streams ?? false,
    idleTimeoutSecs: idleTimeout(ctx, params.idle_queue_timeout),
  };
}

/**
 * Registers a queue and fetches the initial state so that the snapshot plus the queue's events
 * never miss or repeat a change: the queue is created before the read callback's first await,
 * in the step its snapshot is taken, and a commit publishes its events in the step of the
 * commit (see `Storage.read` and `Tx.afterCommit`).
 */
async function register(ctx: Ctx, caller: Caller, params: RegisterInput): Promise<Result<RegisterResponse, ApiError>> {
  const clientGravatar = params.client_gravatar ?? caller.user !== null;
  if (!caller.user) {
    if (!caller.realm.webPublicAccessEnabled) return err(unauthorized());
    if (params.client_gravatar === true) return err(badRequest('Invalid client_gravatar for a spectator'));
  }
  const options = queueOptions(ctx, params, clientGravatar);
  const stateOptions: StateOptions = {
    clientGravatar,
    applyMarkdown: params.apply_markdown,
    includeSubscribers: params.include_subscribers,
    slimPresence: params.slim_presence,
    presenceHistoryLimitDays: params.presence_history_limit_days,
    capabilities: options.capabilities,
  };
  const fetchTypes = params.fetch_event_types ?? params.event_types ?? null;
  // A bot's queue defaults come from a read of their own: awaiting them inside the state read
  // would create the queue after its snapshot, and a commit in between would be missed.
  const bot = caller.user?.isBot ? caller.user : null;
  if (bot) Object.assign(options, await ctx.storage.read((tx) => botQueueDefaults(tx, bot, params.all_public_streams, options.narrow)));
  return ctx.storage.read(async (tx) => {
    if (options.allPublicStreams && caller.user && isGuest(caller.user)) return err(badRequest('User not authorized for this query'));
    const queue = caller.user ? ctx.queues.create(caller.realm.id, caller.user.id, options) : null;
    // The sections are assembled from a table of fetchers; state/all.ts checks them against InitialState.
    const state = await fetchInitialState(ctx, tx, caller, fetchTypes ? new Set(fetchTypes) : null, stateOptions);
    return ok<RegisterResponse>({
      queue_id: queue?.id ?? null,
      last_event_id: queue ? queue.lastEventId : -1,
      ...(queue ? { idle_queue_timeout_secs: options.idleTimeoutSecs } : {}),
      ...alwaysPresent(ctx),
      ...state,
    });
  });
}

/** POST /register: a new event queue and the initial state (SHAPES.md 2). */
export const doRegister = spectatorOperation(RegisterParams, register);

/**
 * GET /events (API.md 4.2): long-polls a queue. Without queue_id, registers one from the
 * register parameters and returns it with its events (`dont_block` is implied).
 */
export const getEvents = userOperation(GetEventsParams, async (ctx, actor: Actor, params) => {
  if (params.queue_id === undefined) {
    // Only the queue is answered, never a snapshot: fetch no section rather than all of them.
    const registered = await register(ctx, actor, { ...params, fetch_event_types: [] });
    if (registered.isErr()) return err(registered.error);
    const queueId = registered.value.queue_id!;
    // Another registration of the same user may have ended it already (maxQueuesPerUser).
    const queue = ctx.queues.get(queueId, actor.user.id);
    if (queue.isErr()) return err(queue.error);
    return ok(pollAnswer(queue.value.pending(), queueId));
  }
  const queueId = params.queue_id;
  const queue = ctx.queues.get(queueId, actor.user.id);
  if (queue.isErr()) return err(queue.error);
  const events = await ctx.queues.poll(queue.value, params.last_event_id, params.dont_block);
  return events.map((list) => pollAnswer(list, queueId));
});
// Long-polls are not counted by the rate limits (rate-limits/exempt.ts).
notRateLimited(getEvents);

/**
 * A poll's answer, marked so that the HTTP envelope (`toJson`) walks down through the events
 * list (level 2) into each event (level 3) and reuses the text of the parts the events share
 * with other queues' answers (the formatted message, marked when it was queued).
 */
const pollAnswer = (events: QueuedEvent[], queueId: string) => withSharedParts({ events, queue_id: queueId }, 3);

/** DELETE /events: discards a queue (its waiting poll, if any, is answered). */
export const doDeleteQueue = userOperation(DeleteQueueParams, async (ctx, actor: Actor, params) => {
  const queue = ctx.queues.get(params.queue_id, actor.user.id);
  if (queue.isErr()) return err(queue.error);
  ctx.queues.delete(queue.value);
  return ok({});
});

export type { EventQueue, QueuedEvent };
