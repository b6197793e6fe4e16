import { err, ok, type Result } from 'neverthrow';
import { canPostToChannel } from '../access/channel-rules.js';
import { accessStreamById } from '../access/channels.js';
import type { Ctx } from '../context.js';
import { type ApiError, badRequest } from '../errors.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../messages/normalize.js';
import { apiEmail } from '../format/user.js';
import { type Actor, userOperation } from '../operation.js';
import { TypingParams } from '../schemas/typing.js';
import type { Realm, User } from '../storage/types.js';
import { userSetting } from '../settings/user-settings.js';

const person = (realm: Realm, user: User) => ({ user_id: user.id, email: apiEmail(realm, user) });

/** No typing events for channels with more subscribers (MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS). */
export const MAX_CHANNEL_SIZE_FOR_TYPING = 100;

/** On input, "(no topic)" and the display name both mean the empty topic (SHAPES.md 1.5). */
const storedTopic = (topic: string) => (topic === '(no topic)' || topic === EMPTY_TOPIC_DISPLAY_NAME ? '' : topic);

/**
 * The subscribers of a channel the sender may post to who receive typing notifications; none
 * when the channel is over the size limit. "Invalid channel ID" for a channel the sender cannot
 * read (unknown, another realm's, private without a subscription, archived).
 */
async function channelTypingRecipients(ctx: Ctx, sender: User, streamId: number): Promise<Result<number[], ApiError>> {
  return ctx.storage.read(async (tx) => {
    const access = await accessStreamById(tx, sender, streamId);
    if (access.isErr()) return err(access.error);
    if (!canPostToChannel(sender, access.value.stream)) return err(badRequest('You do not have permission to post in this channel.'));
    const subscriberIds = await tx.subscriptions.activeSubscriberIds(sender.realmId, streamId);
    if (subscriberIds.length > MAX_CHANNEL_SIZE_FOR_TYPING) return ok([]);
    const subscribers = await tx.users.list(sender.realmId, subscriberIds);
    return ok(subscribers.filter((u) => userSetting(u, 'receives_typing_notifications')).map((u) => u.id));
  });
}

/**
 * POST /typing (API.md 4.1): relays a typing start/stop to the conversation. The server keeps
 * no typing state. Direct typing goes to every recipient, the sender included, who receives
 * typing notifications; channel typing to the channel's subscribers who do.
 */
export const doSendTyping = userOperation(TypingParams, async (ctx, actor: Actor, params) => {
  const { realm, user: sender } = actor;
  if (params.type !== 'direct') {
    if (params.stream_id === undefined) return err(badRequest('Missing channel ID'));
    if (params.topic === undefined) return err(badRequest('Missing topic'));
    if (!userSetting(sender, 'send_stream_typing_notifications')) {
      return err(badRequest('User has disabled typing notifications for channel messages'));
    }
    const recipients = await channelTypingRecipients(ctx, sender, params.stream_id);
    if (recipients.isErr()) return err(recipients.error);
    if (recipients.value.length === 0) return ok({});
    ctx.events.publish({
      realmId: realm.id,
      userIds: recipients.value,
      event: {
        type: 'typing',
        op: params.op,
        message_type: 'stream',
        sender: person(realm, sender),
        stream_id: params.stream_id,
        topic: storedTopic(params.topic),
      },
    });
    return ok({});
  }

  if (params.to === undefined) return err(badRequest("Missing 'to' argument"));
  if (params.to.length === 0) return err(badRequest("Empty 'to' list"));
  if (!userSetting(sender, 'send_private_typing_notifications')) {
    return err(badRequest('User has disabled typing notifications for direct messages'));
  }
  const ids = [...new Set([...params.to, sender.id])].sort((a, b) => a - b);
  const users = await ctx.storage.read((tx) => tx.users.list(realm.id, ids));
  const missing = ids.find((id) => !users.some((u) => u.id === id));
  if (missing !== undefined) return err(badRequest(`Invalid user ID ${missing}`));

  ctx.events.publish({
    realmId: realm.id,
    userIds: users.filter((u) => u.isActive && userSetting(u, 'receives_typing_notifications')).map((u) => u.id),
    event: {
      type: 'typing',
      op: params.op,
      message_type: 'direct',
      sender: person(realm, sender),
      recipients: users.map((u) => person(realm, u)),
    },
  });
  return ok({});
});
