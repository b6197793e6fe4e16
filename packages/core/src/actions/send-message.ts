import { err, ok, type Result } from 'neverthrow';
import { hasContentAccess, canPostToChannel } from '../access/channel-rules.js';
import { activeUsers, metadataAudience } from '../access/channels.js';
import { announceStreamUpdate } from './channel-events.js';
import type { Ctx } from '../context.js';
import { ApiError, badRequest } from '../errors.js';
import { apiEmail } from '../format/user.js';
import { renderMessage } from '../markdown/index.js';
import { announceMessage } from '../messages/message-events.js';
import { dmKeyOf, normalizeContent, normalizeTopic } from '../messages/normalize.js';
import { renderContextFor } from '../messages/render-context.js';
import { channelMessageLink, channelMessageUrl, directMessageUrl } from '../messages/urls.js';
import { type Actor, userOperation } from '../operation.js';
import { SendMessageParams } from '../schemas/messages.js';
import { FLAG_BITS, type Realm, type Stream, type Tx, type User } from '../storage/types.js';
import { transactionAs } from './transaction.js';

type Target =
  | { kind: 'stream'; stream: Stream; topic: string; recipientIds: number[] }
  | { kind: 'private'; participants: User[] };

/** `to` as sent: a channel name or ID, or user IDs / emails (JSON list or comma-separated). */
function parseTo(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/**
 * POST /messages (SHAPES.md 6.2): a channel message to a topic, or a direct message. Each
 * recipient gets a copy with flags computed from the content (mentions, wildcards), and a
 * `message` event after commit.
 */
export const doSendMessage = userOperation(SendMessageParams, async (ctx, requester: Actor, params) => {
  if (params.topic !== undefined && params.subject !== undefined) {
    return err(new ApiError('REQUEST_CONFUSING_VAR', "Can't decide between 'topic' and 'subject' arguments", { var_name1: 'topic', var_name2: 'subject' }));
  }
  const content = normalizeContent(params.content, ctx.config);
  if (content.isErr()) return err(content.error);
  const channel = params.type === 'stream' || params.type === 'channel';

  return transactionAs(ctx, requester, async (tx, actor) => {
    const { realm, user: sender } = actor;
    const users = await tx.users.list(realm.id);
    const target = channel
      ? await channelTarget(ctx, tx, sender, parseTo(params.to), params.topic ?? params.subject)
      : directTarget(realm, sender, users, parseTo(params.to));
    if (target.isErr()) return err(target.error);

    const streams = await tx.streams.list(realm.id);
    const subscriptions = await tx.subscriptions.forUser(realm.id, sender.id);
    const subscribed = new Set(subscriptions.filter((s) => s.active).map((s) => s.streamId));
    const linkable = streams.filter((s) => !s.isArchived && hasContentAccess(sender, s, subscribed.has(s.id)));
    const now = ctx.clock.now();
    const realmEmoji = await tx.realmEmoji.list(realm.id);
    const rendered = renderMessage(content.value, renderContextFor(realm, users, linkable, new Date(now), realmEmoji));

    const t = target.value;
    const recipientIds = t.kind === 'stream' ? t.recipientIds : t.participants.map((u) => u.id);
    const topicParticipants = t.kind === 'stream' && rendered.wildcards.topic ? await topicSenders(tx, realm, t.stream.id, t.topic) : new Set<number>();
    const flagsByUser = new Map<number, number>();
    for (const userId of new Set([...recipientIds, sender.id])) {
      let flags = 0;
      if (userId === sender.id && params.read_by_sender !== false) flags |= FLAG_BITS.read;
      if (rendered.mentionedUserIds.has(userId)) flags |= FLAG_BITS.mentioned;
      if (t.kind === 'stream' && rendered.wildcards.stream) flags |= FLAG_BITS.stream_wildcard_mentioned;
      if (t.kind === 'stream' && rendered.wildcards.topic && (topicParticipants.has(userId) || userId === sender.id)) {
        flags |= FLAG_BITS.topic_wildcard_mentioned;
      }
      flagsByUser.set(userId, flags);
    }

    const dmKey = t.kind === 'private' ? dmKeyOf(recipientIds) : null;
    const message = await tx.messages.insert(
      {
        realmId: realm.id,
        senderId: sender.id,
        type: t.kind,
        streamId: t.kind === 'stream' ? t.stream.id : null,
        topic: t.kind === 'stream' ? t.topic : '',
        dmKey,
        content: content.value,
        renderedContent: rendered.html,
        dateSent: Math.floor(now / 1000),
        sendingClient: 'API',
        lastEditTime: null,
        lastMovedTime: null,
        editHistory: [],
        hasLink: rendered.hasLink,
        hasImage: rendered.hasImage,
        hasAttachment: rendered.hasAttachment,
        isMeMessage: rendered.isMeMessage,
      },
      [...flagsByUser].map(([userId, flags]) => ({ userId, flags })),
    );

    const dmConversationIds = new Map<string, number>();
    if (dmKey) dmConversationIds.set(dmKey, await tx.messages.dmConversationId(realm.id, dmKey));
    const byId = new Map(users.map((u) => [u.id, u]));
    const localEcho = params.queue_id && params.local_id ? { queueId: params.queue_id, localId: params.local_id } : undefined;
    announceMessage(
      ctx,
      tx,
      realm,
      message,
      { realm, users: byId, streamNames: new Map(streams.map((s) => [s.id, s.name])), dmConversationIds, topicLinks: () => [] },
      flagsByUser,
      { localEcho },
    );

    if (t.kind === 'stream') {
      if (t.stream.firstMessageId === null) await recordFirstMessage(ctx, tx, realm, t.stream, message.id);
      const url = channelMessageUrl(realm, t.stream, t.topic, message.id);
      return ok({ id: message.id, message_url: url, message_link: channelMessageLink(t.stream.name, t.topic, url) });
    }
    const url = directMessageUrl(realm, recipientIds.filter((id) => id !== sender.id).length ? recipientIds : [sender.id], message.id);
    return ok({ id: message.id, message_url: url, message_link: url });
  });
});

async function channelTarget(ctx: Ctx, tx: Tx, sender: User, to: unknown, rawTopic: string | undefined): Promise<Result<Target, ApiError>> {
  const single = Array.isArray(to) && to.length === 1 ? to[0] : to;
  let stream: Stream | undefined;
  let missing: ApiError;
  if (typeof single === 'number' && Number.isSafeInteger(single)) {
    stream = await tx.streams.byId(sender.realmId, single);
    missing = new ApiError('STREAM_DOES_NOT_EXIST', `Channel with ID '${single}' does not exist`, { stream_id: single });
  } else if (typeof single === 'string' && single.trim() !== '') {
    stream = await tx.streams.byName(sender.realmId, single.trim());
    missing = new ApiError('STREAM_DOES_NOT_EXIST', `Channel '${single.trim()}' does not exist`, { stream: single.trim() });
  } else {
    return err(badRequest('Invalid channel name'));
  }
  const subscription = stream ? await tx.subscriptions.get(sender.realmId, sender.id, stream.id) : undefined;
  if (!stream || !hasContentAccess(sender, stream, subscription?.active === true)) return err(missing);
  if (stream.isArchived || !canPostToChannel(sender, stream)) {
    return err(badRequest(`You do not have permission to post in this channel.`));
  }
  if (rawTopic === undefined) return err(badRequest('Missing topic'));
  const topic = normalizeTopic(rawTopic, ctx.config);
  if (topic.isErr()) return err(topic.error);
  if (topic.value === '' && stream.topicsPolicy === 'disable_empty_topic') {
    return err(badRequest('Sending messages to the general chat is not allowed in this channel.'));
  }
  const recipientIds = await tx.subscriptions.activeSubscriberIds(sender.realmId, stream.id);
  return ok({ kind: 'stream', stream, topic: topic.value, recipientIds });
}

function directTarget(realm: Realm, sender: User, users: readonly User[], to: unknown): Result<Target, ApiError> {
  const entries = Array.isArray(to) ? to : typeof to === 'number' ? [to] : String(to).split(',').map((s) => s.trim()).filter(Boolean);
  if (entries.length === 0) return err(badRequest('Message must have recipients'));
  const participants = new Map<number, User>([[sender.id, sender]]);
  for (const entry of entries) {
    let user: User | undefined;
    if (typeof entry === 'number') {
      user = users.find((u) => u.id === entry);
      if (!user) return err(badRequest(`Invalid user ID ${entry}`));
    } else {
      const email = String(entry).toLowerCase();
      user = users.find((u) => u.deliveryEmail.toLowerCase() === email || apiEmail(realm, u).toLowerCase() === email);
      if (!user) return err(badRequest(`Invalid email '${entry}'`));
    }
    if (!user.isActive) return err(badRequest(`'${apiEmail(realm, user)}' is no longer using Zulip.`));
    participants.set(user.id, user);
  }
  return ok({ kind: 'private', participants: [...participants.values()].sort((a, b) => a.id - b.id) });
}

/** Who has sent to the topic: they are the audience of @**topic**. */
async function topicSenders(tx: Tx, realm: Realm, streamId: number, topic: string): Promise<Set<number>> {
  const ids = await tx.messages.topicMessageIds(realm.id, streamId, topic);
  return new Set((await tx.messages.byIds(realm.id, ids)).map((m) => m.senderId));
}

/** A channel's first message: `first_message_id` is recorded and announced (FL 256). */
async function recordFirstMessage(ctx: Ctx, tx: Tx, realm: Realm, stream: Stream, messageId: number): Promise<void> {
  await tx.streams.update(realm.id, stream.id, { firstMessageId: messageId });
  const users = await activeUsers(tx, realm.id);
  const subscribers = new Set(await tx.subscriptions.activeSubscriberIds(realm.id, stream.id));
  announceStreamUpdate(ctx, tx, realm, stream, metadataAudience(users, stream, subscribers), 'first_message_id', messageId);
}

