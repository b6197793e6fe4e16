import { err, ok, type Result } from 'neverthrow';
import { hasContentAccess, canPostToChannel } from '../access/channel-rules.js';
import { activeUsers, metadataAudience } from '../access/channels.js';
import { isGuest } from '../access/roles.js';
import { announceStreamUpdate } from './channel-events.js';
import type { Ctx } from '../context.js';
import { ApiError, badRequest } from '../errors.js';
import { apiEmail } from '../format/user.js';
import { renderMessage } from '../markdown/index.js';
import { contentFlags, topicSenders } from '../messages/content-flags.js';
import { channelIndicator, directRecipients } from '../messages/addressee.js';
import { announceMessage } from '../messages/message-events.js';
import { checkDirectMessagePermission } from '../access/direct-message-rules.js';
import { dmKeyOf, normalizeContent, normalizeTopic } from '../messages/normalize.js';
import { checkTopicsPolicy } from '../messages/topics-policy.js';
import { renderContextFor } from '../messages/render-context.js';
import { realmLinkifiers, topicLinksWith } from '../linkifiers/for-render.js';
import { channelMessageLink, channelMessageUrl, directMessageUrl } from '../messages/urls.js';
import { type Actor, userOperation } from '../operation.js';
import { SendMessageParams } from '../schemas/messages.js';
import { FLAG_BITS, type Realm, type Stream, type Tx, type User } from '../storage/types.js';
import { transactionAs } from './transaction.js';
import { claimableUploads, linkUploads } from '../uploads/claim.js';

export type Target =
  | { kind: 'stream'; stream: Stream; topic: string; recipientIds: number[] }
  | { kind: 'private'; participants: User[] };


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
      ? await channelTarget(ctx, tx, sender, params.to, params.topic ?? params.subject)
      : directTarget(realm, sender, users, params.to);
    if (target.isErr()) return err(target.error);
    if (target.value.kind === 'private') {
      const allowed = await checkDirectMessagePermission(tx, realm, sender, target.value.participants);
      if (allowed.isErr()) return err(allowed.error);
    }

    const streams = await tx.streams.list(realm.id);
    const now = ctx.clock.now();
    const linkifiers = await realmLinkifiers(tx, realm.id);
    const userGroups = await tx.userGroups.list(realm.id);
    const rendered = await renderAs(tx, realm, sender, content.value, now);

    const t = target.value;
    const recipientIds = t.kind === 'stream' ? t.recipientIds : t.participants.map((u) => u.id);
    const topicParticipants = t.kind === 'stream' && rendered.wildcards.topic ? await topicSenders(tx, realm, t.stream.id, t.topic) : new Set<number>();
    const copyHolders = [...new Set([...recipientIds, sender.id])];
    // Each recipient's own alert words (the sender's too: the reference flags them as well).
    const alert = { content: content.value, words: await tx.alertWords.forUsers(realm.id, copyHolders) };
    const flagsByUser = contentFlags(rendered, copyHolders, { channel: t.kind === 'stream', senderId: sender.id, topicParticipants, alert, userGroups });
    if (params.read_by_sender !== false) flagsByUser.set(sender.id, flagsByUser.get(sender.id)! | FLAG_BITS.read);

    const dmKey = t.kind === 'private' ? dmKeyOf(recipientIds) : null;
    const uploads = await claimableUploads(tx, sender, rendered.attachmentPathIds);
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
        hasAttachment: uploads.length > 0,
        isMeMessage: rendered.isMeMessage,
      },
      [...flagsByUser].map(([userId, flags]) => ({ userId, flags })),
    );
    await linkUploads(ctx, tx, message, uploads);

    const dmConversationIds = new Map<string, number>();
    if (dmKey) dmConversationIds.set(dmKey, await tx.messages.dmConversationId(realm.id, dmKey));
    const byId = new Map(users.map((u) => [u.id, u]));
    const localEcho = params.queue_id && params.local_id ? { queueId: params.queue_id, localId: params.local_id } : undefined;
    announceMessage(
      ctx,
      tx,
      realm,
      message,
      { realm, users: byId, streamNames: new Map(streams.map((s) => [s.id, s.name])), dmConversationIds, topicLinks: topicLinksWith(linkifiers) },
      flagsByUser,
      {
        localEcho,
        // Queues registered with all_public_streams see every public channel's messages.
        publicAudience: t.kind === 'stream' && !t.stream.inviteOnly ? users.filter((u) => u.isActive && !isGuest(u)).map((u) => u.id) : [],
      },
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

/**
 * The channel and topic of a channel message. A channel the sender may not read answers exactly
 * as a missing one, so that private channels stay invisible.
 */
export async function channelTarget(ctx: Ctx, tx: Tx, sender: User, to: string, rawTopic: string | undefined): Promise<Result<Target, ApiError>> {
  const indicator = channelIndicator(to);
  if (indicator.isErr()) return err(indicator.error);
  let stream: Stream | undefined;
  let missing: ApiError;
  if (typeof indicator.value === 'number') {
    const id = indicator.value;
    stream = await tx.streams.byId(sender.realmId, id);
    missing = new ApiError('STREAM_DOES_NOT_EXIST', `Channel with ID '${id}' does not exist`, { stream_id: id });
  } else {
    const name = indicator.value.trim();
    if (name === '') return err(badRequest("Channel name can't be empty."));
    stream = await tx.streams.byName(sender.realmId, name);
    missing = new ApiError('STREAM_DOES_NOT_EXIST', `Channel '${name}' does not exist`, { stream: name });
  }
  const subscription = stream ? await tx.subscriptions.get(sender.realmId, sender.id, stream.id) : undefined;
  if (!stream || !hasContentAccess(sender, stream, subscription?.active === true)) return err(missing);
  if (stream.isArchived) return err(badRequest(`Not authorized to send to channel '${stream.name}'`));
  if (!canPostToChannel(sender, stream)) return err(badRequest('You do not have permission to post in this channel.'));
  if (rawTopic === undefined) return err(badRequest('Missing topic'));
  const topic = normalizeTopic(rawTopic, ctx.config);
  if (topic.isErr()) return err(topic.error);
  const allowed = await checkTopicsPolicy(tx, stream, topic.value, true);
  if (allowed.isErr()) return err(allowed.error);
  const recipientIds = await tx.subscriptions.activeSubscriberIds(sender.realmId, stream.id);
  return ok({ kind: 'stream', stream, topic: topic.value, recipientIds });
}

/**
 * The participants of a direct message, the sender included. Emails are matched against the
 * email each user shows through the API, so a hidden real address cannot be probed.
 */
export function directTarget(realm: Realm, sender: User, users: readonly User[], to: string): Result<Target, ApiError> {
  const recipients = directRecipients(to);
  if (recipients.isErr()) return err(recipients.error);
  const wanted = recipients.value;
  if (('ids' in wanted ? wanted.ids : wanted.emails).length === 0) return err(badRequest('Message must have recipients'));
  const found: User[] = [];
  if ('ids' in wanted) {
    for (const id of wanted.ids) {
      const user = users.find((u) => u.id === id);
      if (!user) return err(badRequest(`Invalid user ID ${id}`));
      found.push(user);
    }
  } else {
    for (const email of wanted.emails) {
      const user = users.find((u) => apiEmail(realm, u).toLowerCase() === email.toLowerCase());
      if (!user) return err(badRequest(`Invalid email '${email}'`));
      found.push(user);
    }
  }
  const participants = new Map<number, User>([[sender.id, sender]]);
  for (const user of found) {
    if (!user.isActive) return err(badRequest(`'${apiEmail(realm, user)}' is no longer using Zulip.`));
    participants.set(user.id, user);
  }
  return ok({ kind: 'private', participants: [...participants.values()].sort((a, b) => a.id - b.id) });
}

/** A channel's first message: `first_message_id` is recorded and announced (FL 256). */
async function recordFirstMessage(ctx: Ctx, tx: Tx, realm: Realm, stream: Stream, messageId: number): Promise<void> {
  await tx.streams.update(realm.id, stream.id, { firstMessageId: messageId });
  const users = await activeUsers(tx, realm.id);
  const subscribers = new Set(await tx.subscriptions.activeSubscriberIds(realm.id, stream.id));
  announceStreamUpdate(ctx, tx, realm, stream, metadataAudience(users, stream, subscribers), 'first_message_id', messageId);
}


/** Renders `content` as `sender` would send it at `nowMs` (only channels they may read are linked). */
export async function renderAs(tx: Tx, realm: Realm, sender: User, content: string, nowMs: number) {
  const users = await tx.users.list(realm.id);
  const streams = await tx.streams.list(realm.id);
  const subscriptions = await tx.subscriptions.forUser(realm.id, sender.id);
  const subscribed = new Set(subscriptions.filter((s) => s.active).map((s) => s.streamId));
  const linkable = streams.filter((s) => !s.isArchived && hasContentAccess(sender, s, subscribed.has(s.id)));
  const realmEmoji = await tx.realmEmoji.list(realm.id);
  const linkifiers = await realmLinkifiers(tx, realm.id);
  const userGroups = await tx.userGroups.list(realm.id);
  return renderMessage(content, renderContextFor(realm, users, linkable, new Date(nowMs), realmEmoji, linkifiers, userGroups));
}
