/**
 * A client-side reducer for the channel sections of the register snapshot (`subscription`,
 * `stream`, `default_streams`): the test half of the reference's `verify_action`. A test takes a
 * snapshot, runs an action, applies the events its queue received, and expects a fresh snapshot.
 * The rules follow the reference's apply_event (zerver/lib/events.py) where a client has to
 * know something the events do not say (its own unsubscription changes the subscriber lists).
 */
import type { StreamEvent, SubscriptionEvent } from '@teamchat/core';
import type { LooseQueuedEvent as QueuedEvent } from '../helpers/events.js';

// biome-ignore lint/suspicious/noExplicitAny: register snapshots are JSON checked field by field.
export type State = Record<string, any>;
type Channel = Record<string, unknown> & { stream_id: number };

export interface ChannelReducerContext {
  /** The queue's user. */
  userId: number;
  /** The register's include_subscribers. */
  includeSubscribers: boolean | 'partial';
}

const LISTS = ['subscriptions', 'unsubscribed', 'never_subscribed', 'streams'] as const;

/** Every channel object of the state with that ID, in any list. */
function everywhere(state: State, streamId: number): Channel[] {
  return LISTS.flatMap((key) => (Array.isArray(state[key]) ? (state[key]).filter((c) => c.stream_id === streamId) : []));
}

function take(state: State, key: string, streamId: number): Channel | undefined {
  const list = state[key] as Channel[] | undefined;
  const index = list?.findIndex((c) => c.stream_id === streamId) ?? -1;
  return index >= 0 ? list!.splice(index, 1)[0] : undefined;
}

function changeSubscribers(channel: Channel, userIds: readonly number[], op: 'add' | 'remove'): void {
  if (Array.isArray(channel.subscribers)) {
    const set = new Set(channel.subscribers);
    for (const id of userIds) op === 'add' ? set.add(id) : set.delete(id);
    channel.subscribers = [...set].sort((a, b) => a - b);
  }
  channel.subscriber_count = (channel.subscriber_count as number) + (op === 'add' ? userIds.length : -userIds.length);
}

/** Applies the channel events among `events` to a deep copy of `state`; other types are skipped. */
export function applyChannelEvents(state: State, events: readonly QueuedEvent[], context: ChannelReducerContext): State {
  const next: State = structuredClone(state);
  for (const event of events) {
    if (event.type === 'stream') applyStream(next, event, context);
    else if (event.type === 'subscription') applySubscription(next, event, context);
    else if (event.type === 'default_streams' && 'realm_default_streams' in next) next.realm_default_streams = event.default_streams;
  }
  return next;
}

function applyStream(state: State, event: StreamEvent, context: ChannelReducerContext): void {
  if (event.op === 'create') {
    for (const stream of event.streams) {
      if (Array.isArray(state.streams) && !state.streams.some((s: Channel) => s.stream_id === stream.stream_id)) state.streams.push({ ...stream });
      const known = ['subscriptions', 'unsubscribed'].some((key) => state[key]?.some((s: Channel) => s.stream_id === stream.stream_id));
      if (Array.isArray(state.never_subscribed) && !known) {
        state.never_subscribed.push(context.includeSubscribers === false ? { ...stream } : { ...stream, subscribers: [] });
      }
    }
  } else if (event.op === 'delete') {
    for (const id of event.stream_ids) for (const key of LISTS) while (take(state, key, id));
  } else if (event.op === 'update') {
    for (const channel of everywhere(state, event.stream_id)) {
      channel[event.property] = event.value;
      if (event.property === 'description') channel.rendered_description = event.rendered_description;
      if (event.property === 'invite_only') {
        channel.history_public_to_subscribers = event.history_public_to_subscribers;
        channel.is_web_public = event.is_web_public;
      }
    }
  } else throw new Error(`unexpected stream event ${JSON.stringify(event)}`);
}

function applySubscription(state: State, event: SubscriptionEvent, context: ChannelReducerContext): void {
  if (event.op === 'add') {
    for (const sub of event.subscriptions) {
      take(state, 'unsubscribed', sub.stream_id);
      take(state, 'never_subscribed', sub.stream_id);
      const added = { ...sub };
      if (context.includeSubscribers === false) delete added.subscribers;
      state.subscriptions?.push(added);
      for (const stream of (state.streams ?? []) as Channel[]) if (stream.stream_id === sub.stream_id) stream.subscriber_count = sub.subscriber_count;
    }
  } else if (event.op === 'remove') {
    for (const { stream_id } of event.subscriptions as Channel[]) {
      const sub = take(state, 'subscriptions', stream_id);
      if (sub) {
        changeSubscribers(sub, [context.userId], 'remove');
        state.unsubscribed?.push(sub);
      }
      for (const stream of (state.streams ?? []) as Channel[]) if (stream.stream_id === stream_id) changeSubscribers(stream, [context.userId], 'remove');
    }
  } else if (event.op === 'update') {
    const sub = (state.subscriptions as Channel[] | undefined)?.find((s) => s.stream_id === event.stream_id);
    if (!sub) throw new Error(`update of unknown subscription ${String(event.stream_id)}`);
    sub[event.property] = event.value;
    if (event.property === 'is_muted') sub.in_home_view = !event.value;
    if (event.property === 'in_home_view') sub.is_muted = !event.value;
  } else if (event.op === 'peer_add' || event.op === 'peer_remove') {
    for (const id of event.stream_ids) {
      for (const channel of everywhere(state, id)) changeSubscribers(channel, event.user_ids, event.op === 'peer_add' ? 'add' : 'remove');
    }
  } else throw new Error(`unexpected subscription op ${String(event.op)}`);
}

/** The channel sections in a comparable order (lists by name, then ID). */
export function normalizedChannels(state: State): State {
  const out: State = {};
  for (const key of [...LISTS, 'realm_default_streams']) {
    if (!(key in state)) continue;
    out[key] =
      key === 'realm_default_streams'
        ? [...state[key]].sort((a: number, b: number) => a - b)
        : [...state[key]].sort((a: Channel, b: Channel) => String(a.name).localeCompare(String(b.name)) || a.stream_id - b.stream_id);
  }
  return out;
}
