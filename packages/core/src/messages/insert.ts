/**
 * The second half of every send: a message whose target is already resolved and allowed is
 * rendered, stored with each recipient's flags and announced after commit. POST /messages
 * reaches it after its permission checks; internal senders (the Notification Bot) reach it
 * directly, as the reference's internal_send_* functions skip the user-facing checks.
 */
import { withRecursiveMembers } from '../access/group-membership.js';
import type { Ctx } from '../context.js';
import { activeUsers, metadataAudience } from '../access/channels.js';
import { realmLinkifiers, topicLinksWith } from '../linkifiers/for-render.js';
import { contentFlags, topicSenders } from './content-flags.js';
import { announceMessage } from './message-events.js';
import { dmKeyOf } from './normalize.js';
import { channelMessageLink, channelMessageUrl, directMessageUrl } from './urls.js';
import { FLAG_BITS, type Realm, type Stream, type Submessage, type Tx, type User, type VisibilityPolicy } from '../storage/types.js';
import { type WidgetContent, widgetFromContent, widgetSubmessageContent } from '../widgets/content.js';
import { announceStreamUpdate } from '../channels/events.js';
import { renderAs } from './render-as.js';
import type { Target } from './targets.js';
import { claimableUploads, linkUploads } from '../uploads/claim.js';
import { applySendPolicies } from './automatic-topic-policy.js';
import { markReadForMuters } from '../muting/muted-senders.js';
import { queueOutgoingWebhooks } from '../bots/outgoing/trigger.js';
import { schedulePushNotifications } from '../push/dispatch.js';

export interface InsertOptions {
  /** The sender's own copy starts read (POST /messages' read_by_sender, default true). */
  readBySender?: boolean;
  /** The sender's queue that should get `local_message_id`. */
  localEcho?: { queueId: string; localId: string };
  /** Recipients whose copy starts read (the reference's mark_as_read, e.g. whoever caused a notice). */
  readBy?: readonly number[];
  /** The `client` the message shows; the reference's internal sends say "Internal". */
  sendingClient?: string;
  /** A widget the sender attached (POST /messages' widget_content); it wins over one the content asks for. */
  widget?: WidgetContent;
}

/** What POST /messages answers: the new message's ID and its permanent links. */
export interface SentMessage {
  id: number;
  message_url: string;
  message_link: string;
  /** The sender's topic policy when sending changed it (2 unmuted, 3 followed); absent otherwise. */
  automatic_new_visibility_policy?: VisibilityPolicy;
}

/**
 * Stores `content` (already normalized) from `sender` to `target` and announces it after
 * commit. Runs inside the caller's transaction, so the message commits with the caller's writes.
 */
export async function insertMessage(ctx: Ctx, tx: Tx, realm: Realm, sender: User, t: Target, content: string, options: InsertOptions = {}): Promise<SentMessage> {
  // Only what this message needs is read: whole-realm reads per send grow with the realm.
  const now = ctx.clock.now();
  const recipientIds = t.kind === 'stream' ? t.recipientIds : t.participants.map((u) => u.id);
  const copyHolders = [...new Set([...recipientIds, sender.id])];
  // Reads that depend on nothing read here, sent together: one round trip on a networked database.
  const [linkifiers, alertWords, muterIds] = await Promise.all([
    realmLinkifiers(tx, realm.id),
    // Each recipient's own alert words (the sender's too: the reference flags them as well).
    tx.alertWords.forUsers(realm.id, copyHolders),
    tx.mutedUsers.mutersOf(realm.id, sender.id),
  ]);
  const rendered = await renderAs(tx, realm, sender, content, now, linkifiers);
  // Groups matter to the flags only through the groups the message mentions; their members
  // include subgroups' (system subgroups by role), hence the realm's users then.
  const userGroups = rendered.mentionedGroupIds.size > 0 ? withRecursiveMembers(await tx.userGroups.list(realm.id), await tx.users.list(realm.id)) : [];
  const uploads = await claimableUploads(tx, sender, rendered.attachmentPathIds);

  const topicParticipants = t.kind === 'stream' && rendered.wildcards.topic ? await topicSenders(tx, realm, t.stream.id, t.topic) : new Set<number>();
  const alert = { content, words: alertWords };
  const flagsByUser = contentFlags(rendered, copyHolders, { channel: t.kind === 'stream', senderId: sender.id, topicParticipants, alert, userGroups });
  if (options.readBySender !== false) flagsByUser.set(sender.id, flagsByUser.get(sender.id)! | FLAG_BITS.read);
  for (const id of options.readBy ?? []) {
    const flags = flagsByUser.get(id);
    if (flags !== undefined) flagsByUser.set(id, flags | FLAG_BITS.read);
  }
  // Recipients who muted the sender get the message already read.
  markReadForMuters(muterIds, flagsByUser);

  const dmKey = t.kind === 'private' ? dmKeyOf(recipientIds) : null;
  const message = await tx.messages.insert(
    {
      realmId: realm.id,
      senderId: sender.id,
      type: t.kind,
      streamId: t.kind === 'stream' ? t.stream.id : null,
      topic: t.kind === 'stream' ? t.topic : '',
      dmKey,
      content,
      renderedContent: rendered.html,
      dateSent: Math.floor(now / 1000),
      sendingClient: options.sendingClient ?? 'API',
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
  const submessages = await createWidget(tx, realm, message.id, sender, options.widget ?? widgetFromContent(content));
  // Before the send's own topic policies change: the reference decides on the state before the send.
  await schedulePushNotifications(ctx, tx, {
    realm,
    message,
    sender,
    stream: t.kind === 'stream' ? t.stream : undefined,
    participants: t.kind === 'private' ? t.participants : [],
    flagsByUser,
    mentionedUserIds: rendered.mentionedUserIds,
    mentionedGroups: userGroups.filter((g) => rendered.mentionedGroupIds.has(g.id)),
  });
  // Before the message event, as in the reference: clients learn the new policy first.
  const automatic = t.kind === 'stream'
    ? await applySendPolicies(ctx, tx, sender, { stream: t.stream, topic: t.topic, messageId: message.id, recipientIds, flagsByUser, senderSubscription: t.senderSubscription })
    : undefined;

  const dmConversationIds = new Map<string, number>();
  if (dmKey) dmConversationIds.set(dmKey, await tx.messages.dmConversationId(realm.id, dmKey));
  // The event shows the sender and, for a direct message, its participants; and the channel's name.
  const shown = new Map<number, User>([[sender.id, sender]]);
  if (t.kind === 'private') for (const user of t.participants) shown.set(user.id, user);
  const streamNames = new Map(t.kind === 'stream' ? [[t.stream.id, t.stream.name]] : []);
  announceMessage(
    ctx,
    tx,
    realm,
    message,
    { realm, users: shown, streamNames, dmConversationIds, topicLinks: topicLinksWith(linkifiers) },
    flagsByUser,
    // Queues registered with all_public_streams see every public channel's messages.
    { localEcho: options.localEcho, toAllPublicStreams: t.kind === 'stream' && !t.stream.inviteOnly, submessages },
  );
  await queueOutgoingWebhooks(ctx, tx, realm, sender, t, message, rendered.mentionedUserIds);
  const metrics = ctx.metrics;
  if (metrics) tx.afterCommit(() => metrics.messageSent(t.kind));

  if (t.kind === 'stream') {
    if (t.stream.firstMessageId === null) await recordFirstMessage(ctx, tx, realm, t.stream, message.id);
    const url = channelMessageUrl(realm, t.stream, t.topic, message.id);
    const link = channelMessageLink(t.stream.name, t.topic, url);
    return { id: message.id, message_url: url, message_link: link, ...(automatic !== undefined && { automatic_new_visibility_policy: automatic }) };
  }
  const url = directMessageUrl(realm, recipientIds.filter((id) => id !== sender.id).length ? recipientIds : [sender.id], message.id);
  return { id: message.id, message_url: url, message_link: url };
}

/**
 * A `/poll` or `/todo` message, or one sent with widget_content, becomes a widget: its first
 * submessage, from the sender, holds the widget's data (the reference's do_widget_post_save_actions).
 * The message event carries it; no `submessage` event is sent for it.
 */
async function createWidget(tx: Tx, realm: Realm, messageId: number, sender: User, widget: WidgetContent | undefined): Promise<Submessage[]> {
  if (!widget) return [];
  const stored = await tx.submessages.insert(realm.id, { messageId, senderId: sender.id, msgType: 'widget', content: widgetSubmessageContent(widget) });
  return stored ? [stored] : [];
}

/** A channel's first message: `first_message_id` is recorded and announced (FL 256). */
async function recordFirstMessage(ctx: Ctx, tx: Tx, realm: Realm, stream: Stream, messageId: number): Promise<void> {
  await tx.streams.update(realm.id, stream.id, { firstMessageId: messageId });
  const users = await activeUsers(tx, realm.id);
  const subscribers = new Set(await tx.subscriptions.activeSubscriberIds(realm.id, stream.id));
  announceStreamUpdate(ctx, tx, realm, stream, metadataAudience(users, stream, subscribers), 'first_message_id', messageId);
}
