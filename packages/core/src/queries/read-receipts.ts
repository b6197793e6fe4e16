import { err, ok } from 'neverthrow';
import { readReceiptsDisabled } from '../errors.js';
import { accessMessage } from '../messages/access.js';
import { type Actor, userOperation } from '../operation.js';
import { GetReadReceiptsParams } from '../schemas/read-receipts.js';
import { realmSetting } from '../settings/realm-settings.js';
import { userSetting } from '../settings/user-settings.js';
import { FLAG_BITS } from '../storage/types.js';

/**
 * GET /messages/{message_id}/read_receipts (FL 137; the reference's views/read_receipts.py):
 * who has the message marked read, for a message the caller may read, in a realm with
 * enable_read_receipts on. Listed, ascending: active users (bots too) whose copy is read,
 * historical copies included, except the sender, users whose send_read_receipts is off, users
 * the caller muted and users who muted the caller (who could otherwise learn it from the
 * muters reading everything they send at once).
 */
export const getReadReceipts = userOperation(GetReadReceiptsParams, async (ctx, actor: Actor, params) =>
  ctx.storage.read(async (tx) => {
    const { realm, user: viewer } = actor;
    const message = await accessMessage(tx, viewer, params.message_id);
    if (message.isErr()) return err(message.error);
    if (!realmSetting(realm, 'enable_read_receipts')) return err(readReceiptsDisabled());
    const readerIds = (await tx.messages.recipients(message.value.id))
      .filter((copy) => copy.flags & FLAG_BITS.read && copy.userId !== message.value.senderId)
      .map((copy) => copy.userId);
    if (readerIds.length === 0) return ok({ user_ids: [] as number[] });
    const muted = new Set((await tx.mutedUsers.list(realm.id, viewer.id)).map((m) => m.mutedUserId));
    const muters = new Set(await tx.mutedUsers.mutersOf(realm.id, viewer.id, readerIds));
    const readers = await tx.users.list(realm.id, readerIds);
    const shown = readers.filter((u) => u.isActive && userSetting(u, 'send_read_receipts') && !muted.has(u.id) && !muters.has(u.id));
    return ok({ user_ids: shown.map((u) => u.id) });
  }),
);
