/** Shared pieces of the automatic topic visibility tests: settings, full send responses, stored policies. */
import { doSendMessage, doUpdateSettings, doUpdateSubscriptionProperties, type SentMessage, type Stream, type User } from '@teamchat/core';
import type { LoosePublishedEvent as PublishedEvent } from '../helpers/events.js';
import { must } from '../helpers/core.js';
import type { MessageWorld } from './message-helpers.js';

/** The reference's values of the two automatic settings. */
export const ON_PARTICIPATION = 1;
export const ON_SEND = 2;
export const ON_INITIATION = 3;
export const NEVER = 4;

/** PATCH /settings for the automatic settings (values as JSON text, as the API sends them). */
export async function automatic(m: MessageWorld, user: User, follow: number, unmute: number, whereMentioned = true): Promise<void> {
  must(
    await doUpdateSettings(m.w.ctx, m.w.as(user), {
      automatically_follow_topics_policy: follow,
      automatically_unmute_topics_in_muted_streams_policy: unmute,
      automatically_follow_topics_where_mentioned: whereMentioned,
    }),
  );
}

/** The whole POST /messages answer for a channel message. */
export async function sendTo(m: MessageWorld, user: User, topic: string, content = 'hello', to = 'general'): Promise<SentMessage> {
  return must(await doSendMessage(m.w.ctx, m.w.as(user), { type: 'stream', to, topic, content }));
}

/** Mutes (or unmutes) a channel for the user. */
export async function muteChannel(m: MessageWorld, user: User, stream: Stream, muted = true): Promise<void> {
  const data = JSON.stringify([{ stream_id: stream.id, property: 'is_muted', value: muted }]);
  must(await doUpdateSubscriptionProperties.fromTransport(m.w.ctx, m.w.as(user), { subscription_data: data }));
}

/** The user's stored policy for the topic, 0 when none. */
export async function policyOf(m: MessageWorld, user: User, stream: Stream, topic: string): Promise<number> {
  const rows = await m.w.ctx.storage.read((tx) => tx.userTopics.forTopic(m.w.realm.id, stream.id, topic));
  return rows.find((r) => r.userId === user.id)?.visibilityPolicy ?? 0;
}

/** The published user_topic events as [recipients, stream_id, topic, policy]. */
export const userTopicEvents = (published: readonly PublishedEvent[]) =>
  published
    .filter((p) => p.event.type === 'user_topic')
    .map((p) => [[...p.userIds], p.event.stream_id, p.event.topic_name, p.event.visibility_policy]);
