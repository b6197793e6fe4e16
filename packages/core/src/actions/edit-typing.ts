import { err, ok } from 'neverthrow';
import type { TypingEditMessageEvent } from '../events/union/messages.js';
import { accessMessage } from '../messages/access.js';
import { type Actor, userOperation } from '../operation.js';
import { EditTypingParams } from '../schemas/message-edit.js';
import { userSetting } from '../settings/user-settings.js';
import { MAX_CHANNEL_SIZE_FOR_TYPING } from './typing.js';

/**
 * POST /messages/{message_id}/typing: a typing_edit_message event (SHAPES.md 4.7) to the
 * message's conversation, for users who receive typing notifications: a direct message's
 * participants, or a channel's subscribers (none over the typing size limit).
 */
export const doSendEditTyping = userOperation(EditTypingParams, async (ctx, requester: Actor, params) =>
  ctx.storage.read(async (tx) => {
    const actor = requester.user;
    const access = await accessMessage(tx, actor, params.message_id);
    if (access.isErr()) return err(access.error);
    const message = access.value;
    const participants = message.type === 'private' ? message.dmKey!.split(',').map(Number) : await tx.subscriptions.activeSubscriberIds(actor.realmId, message.streamId!);
    if (message.type === 'stream' && participants.length > MAX_CHANNEL_SIZE_FOR_TYPING) return ok({});
    const users = await tx.users.list(actor.realmId, participants);
    const recipient: TypingEditMessageEvent['recipient'] =
      message.type === 'private' ? { type: 'direct', user_ids: participants } : { type: 'channel', channel_id: message.streamId!, topic: message.topic };
    ctx.events.publish({
      realmId: actor.realmId,
      userIds: users.filter((u) => u.isActive && userSetting(u, 'receives_typing_notifications')).map((u) => u.id),
      event: { type: 'typing_edit_message', op: params.op, sender_id: actor.id, message_id: message.id, recipient },
    });
    return ok({});
  }),
);
