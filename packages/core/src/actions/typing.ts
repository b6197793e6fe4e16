import { err, ok } from 'neverthrow';
import { badRequest } from '../errors.js';
import { defineEventRule } from '../events/rules.js';
import { apiEmail } from '../format/user.js';
import { type Actor, userOperation } from '../operation.js';
import { TypingParams } from '../schemas/typing.js';
import type { Realm, User } from '../storage/types.js';
import { userSetting } from '../settings/user-settings.js';

const person = (realm: Realm, user: User) => ({ user_id: user.id, email: apiEmail(realm, user) });

/**
 * POST /typing (API.md 4.1): relays a typing start/stop to the conversation. The server keeps
 * no typing state. Direct typing goes to every recipient, the sender included, who receives
 * typing notifications. Channel typing is validated here; its delivery needs channels.
 */
export const doSendTyping = userOperation(TypingParams, async (ctx, actor: Actor, params) => {
  const { realm, user: sender } = actor;
  if (params.type !== 'direct') {
    if (params.stream_id === undefined) return err(badRequest('Missing channel ID'));
    if (params.topic === undefined) return err(badRequest('Missing topic'));
    if (!userSetting(sender, 'send_stream_typing_notifications')) {
      return err(badRequest('User has disabled typing notifications for channel messages'));
    }
    // No channel exists until the channels area adds them, so every ID is unknown.
    return err(badRequest('Invalid channel ID'));
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

/** Channel typing reaches only queues whose client declared stream_typing_notifications. */
defineEventRule('typing', {
  accepts: (queue, event) => event.message_type !== 'stream' || queue.options.capabilities.has('stream_typing_notifications'),
});
