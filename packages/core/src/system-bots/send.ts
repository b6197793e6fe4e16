/**
 * Messages from the Notification Bot. They go through the normal send path (rendering, flags,
 * unread, `message` events) with the bot as sender, but skip the checks a person's send makes
 * (posting permission, channel access), as the reference's internal_send_* functions do: the
 * server decides where its notices go.
 */
import { err, ok, type Result } from 'neverthrow';
import { type InsertOptions, insertMessage, type SentMessage } from '../messages/insert.js';
import type { Target } from '../messages/targets.js';
import type { Ctx } from '../context.js';
import { type ApiError, badRequest } from '../errors.js';
import { normalizeContent, normalizeTopic } from '../messages/normalize.js';
import type { Realm, Tx } from '../storage/types.js';
import { notificationBot } from './notification-bot.js';

/** Where a notice goes: a channel's topic, or a direct message to users. */
export type NoticeAddress = { channelId: number; topic: string } | { userIds: readonly number[] };

export interface Notice {
  to: NoticeAddress;
  content: string;
}

/**
 * Sends `notice` from the realm's Notification Bot inside the caller's transaction, so that it
 * commits (and is announced) together with the change it reports. An archived or missing
 * channel, or a direct message with no active recipient, sends nothing and is an error.
 */
export async function sendNotificationBotMessage(
  ctx: Ctx,
  tx: Tx,
  realm: Realm,
  notice: Notice,
  options: Pick<InsertOptions, 'readBy'> = {},
): Promise<Result<SentMessage, ApiError>> {
  const content = normalizeContent(notice.content, ctx.config);
  if (content.isErr()) return err(content.error);
  const bot = await notificationBot(ctx, tx, realm);
  const target = await noticeTarget(ctx, tx, realm, notice.to);
  if (target.isErr()) return err(target.error);
  const withBot: Target =
    target.value.kind === 'private'
      ? { kind: 'private', participants: [bot, ...target.value.participants].sort((a, b) => a.id - b.id) }
      : target.value;
  return ok(await insertMessage(ctx, tx, realm, bot, withBot, content.value, { ...options, sendingClient: 'Internal' }));
}

/** The same, in a transaction of its own: for notices that report no other write. */
export function sendNotificationBotMessageNow(ctx: Ctx, realm: Realm, notice: Notice): Promise<Result<SentMessage, ApiError>> {
  return ctx.storage.transaction((tx) => sendNotificationBotMessage(ctx, tx, realm, notice));
}

async function noticeTarget(ctx: Ctx, tx: Tx, realm: Realm, to: NoticeAddress): Promise<Result<Target, ApiError>> {
  if ('channelId' in to) {
    const stream = await tx.streams.byId(realm.id, to.channelId);
    if (!stream || stream.isArchived) return err(badRequest(`Invalid channel ID ${to.channelId}`));
    const topic = normalizeTopic(to.topic, ctx.config);
    if (topic.isErr()) return err(topic.error);
    const recipientIds = await tx.subscriptions.activeSubscriberIds(realm.id, stream.id);
    return ok({ kind: 'stream', stream, topic: topic.value, recipientIds });
  }
  // Deactivated users get no notices (the reference's internal sends drop them too).
  const participants = (await tx.users.list(realm.id, to.userIds)).filter((u) => u.isActive);
  if (participants.length === 0) return err(badRequest('Message must have recipients'));
  return ok({ kind: 'private', participants });
}
