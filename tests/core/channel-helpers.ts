/**
 * Shared pieces of the channel tests: a realm with one user of every role, subscribing by
 * name, reading channels and rows as stored, and catching what each action publishes.
 */
import {
  doRegister,
  doSubscribe,
  getEvents,
  type InputOf,
  type Stream,
  type StreamPatch,
  type Subscription,
  type SubscriptionPatch,
  type User,
} from '@teamchat/core';
import type { LoosePublishedEvent as PublishedEvent, LooseQueuedEvent as QueuedEvent } from '../helpers/events.js';
import { makeWorld, must, type World } from '../helpers/core.js';
import { fakeClock } from './fixtures.js';

export interface ChannelWorld {
  w: World;
  admin: User;
  moderator: User;
  member: User;
  other: User;
  guest: User;
  bot: User;
  /** Everything published since the last `drain()`. */
  published: PublishedEvent[];
  /** Returns and forgets what was published so far. */
  drain(): PublishedEvent[];
}

/** A realm with its owner, an administrator, a moderator, two members, a guest and a member's bot. */
export async function channelWorld(options: Parameters<typeof makeWorld>[0] = {}): Promise<ChannelWorld> {
  const w = await makeWorld({ clock: fakeClock(), ...options, config: { timers: false, ...options.config } });
  const admin = await w.addUser({ email: 'ada@example.com', fullName: 'Ada Admin', role: 200 });
  const moderator = await w.addUser({ email: 'mo@example.com', fullName: 'Mo Moderator', role: 300 });
  const member = await w.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
  const other = await w.addUser({ email: 'otto@example.com', fullName: 'Otto Other' });
  const guest = await w.addUser({ email: 'gus@example.com', fullName: 'Gus Guest', role: 600 });
  const bot = await w.addUser({ email: 'mel-bot@example.com', fullName: 'Mel Bot', bot: true, botOwnerId: member.id });
  const published: PublishedEvent[] = [];
  w.ctx.events.subscribe((event) => published.push(event));
  return { w, admin, moderator, member, other, guest, bot, published, drain: () => published.splice(0) };
}

/** `subscriptions` form text for channel names. */
export const names = (...list: string[]) => JSON.stringify(list.map((name) => ({ name })));

/** Subscribes `user` (or the principals) to channels by name and returns the response. */
export async function subscribe(w: World, user: User, channelNames: string[], extra: Omit<InputOf<typeof doSubscribe>, 'subscriptions'> = {}) {
  return must(await doSubscribe(w.ctx, w.as(user), { subscriptions: channelNames.map((name) => ({ name })), ...extra }));
}

/** The stored channel of that name (any case). */
export async function channel(w: World, name: string): Promise<Stream> {
  const stream = await w.ctx.storage.read((tx) => tx.streams.byName(w.realm.id, name));
  if (!stream) throw new Error(`no channel ${name}`);
  return stream;
}

/** The stored subscription row, or undefined. */
export function row(w: World, user: User, stream: Stream): Promise<Subscription | undefined> {
  return w.ctx.storage.read((tx) => tx.subscriptions.get(w.realm.id, user.id, stream.id));
}

/** Writes fields of a stored subscription row directly (for state the API cannot set). */
export async function setSubscription(w: World, user: User, stream: Stream, patch: SubscriptionPatch): Promise<void> {
  await w.ctx.storage.transaction(async (tx) => {
    await tx.subscriptions.update(w.realm.id, user.id, stream.id, patch);
    return COMMIT;
  });
}

/** Writes fields of a stored channel directly. */
export async function setStream(w: World, stream: Stream, patch: StreamPatch): Promise<Stream> {
  await w.ctx.storage.transaction(async (tx) => {
    await tx.streams.update(w.realm.id, stream.id, patch);
    return COMMIT;
  });
  return channel(w, stream.name);
}

/** An Ok result for direct storage transactions (neverthrow is core's dependency, not the tests'). */
const COMMIT = { isOk: () => true, isErr: () => false, value: undefined } as never;

/** The channel's active subscribers as stored. */
export function subscribersOf(w: World, stream: Stream): Promise<number[]> {
  return w.ctx.storage.read((tx) => tx.subscriptions.activeSubscriberIds(w.realm.id, stream.id));
}

// biome-ignore lint/suspicious/noExplicitAny: register responses are JSON checked field by field.
export type Snapshot = Record<string, any>;

/** POST /register for `user`; returns the response (a snapshot plus the queue). */
export async function register(w: World, user: User | null, params: Record<string, unknown> = {}): Promise<Snapshot> {
  return must(await doRegister(w.ctx, w.as(user), params));
}

/** Every event queued so far on a registered queue, without waiting. */
export async function queued(w: World, user: User, queueId: string): Promise<QueuedEvent[]> {
  return must(await getEvents(w.ctx, w.as(user), { queue_id: queueId, dont_block: true })).events;
}

/** The users an event type went to, per published event (in order). */
export const recipientsOf = (published: readonly PublishedEvent[], type: string, op?: string) =>
  published.filter((p) => p.event.type === type && (op === undefined || p.event.op === op)).map((p) => [...p.userIds].sort((a, b) => a - b));

/** Sorted IDs. */
export const ids = (...users: User[]) => users.map((u) => u.id).sort((a, b) => a - b);

/** The keys of a channel object (SHAPES.md 5.3) at FL 512. */
export const STREAM_KEYS = [
  'stream_id', 'name', 'description', 'rendered_description', 'date_created', 'creator_id', 'invite_only', 'is_web_public',
  'is_archived', 'history_public_to_subscribers', 'message_retention_days', 'first_message_id', 'folder_id', 'topics_policy',
  'is_recently_active', 'stream_weekly_traffic', 'subscriber_count', 'stream_post_policy', 'is_announcement_only',
  'can_add_subscribers_group', 'can_administer_channel_group', 'can_create_topic_group', 'can_delete_any_message_group',
  'can_delete_own_message_group', 'can_move_messages_out_of_channel_group', 'can_move_messages_within_channel_group',
  'can_remove_subscribers_group', 'can_resolve_topics_group', 'can_send_message_group', 'can_subscribe_group', 'default_push_notifications',
].sort();

/** The personal keys a subscription object adds (SHAPES.md 5.4). */
export const SUBSCRIPTION_KEYS = [
  ...STREAM_KEYS, 'color', 'is_muted', 'in_home_view', 'pin_to_top', 'desktop_notifications', 'audible_notifications',
  'push_notifications', 'email_notifications', 'wildcard_mentions_notify',
].sort();
