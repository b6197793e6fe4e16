import { err, ok } from 'neverthrow';
import { unixSeconds } from '../clock.js';
import { accessMessage } from '../messages/access.js';
import { deleteMessages } from '../messages/delete.js';
import { checkDelete } from '../messages/permissions.js';
import { type Actor, userOperation } from '../operation.js';
import { DeleteMessageParams } from '../schemas/message-edit.js';
import { transactionAs } from '../transaction.js';

/** DELETE /messages/{message_id} (SHAPES.md 6.4). */
export const doDeleteMessage = userOperation(DeleteMessageParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, actor) => {
    const access = await accessMessage(tx, actor.user, params.message_id);
    if (access.isErr()) return err(access.error);
    const message = access.value;
    const sender = await tx.users.byId(actor.realm.id, message.senderId);
    const stream = message.streamId === null ? undefined : await tx.streams.byId(actor.realm.id, message.streamId);
    const allowed = checkDelete(actor.realm, actor.user, message, sender?.isBot ? sender.botOwnerId : null, stream, unixSeconds(ctx.clock));
    if (allowed.isErr()) return err(allowed.error);
    await deleteMessages(ctx, tx, actor.realm, [message], actor.user);
    return ok({});
  }),
);
