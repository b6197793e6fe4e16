/**
 * Muting a user hides what they send: their messages arrive already read for whoever muted
 * them, and muting marks their earlier messages read (the reference's do_send_messages and
 * do_mark_muted_user_messages_as_read). Kept here so that the send path makes one call.
 */
import type { Ctx } from '../context.js';
import { NEWEST } from '../messages/anchor.js';
import { announceFlagUpdate } from '../messages/flag-events.js';
import type { Actor } from '../operation.js';
import { FLAG_BITS, type MessageCondition, type Tx } from '../storage/types.js';

/** More messages than any user holds: "all of them" as a SQL LIMIT. */
const NO_LIMIT = 1_000_000_000;

/**
 * Sets the read flag of a new message's recipients who muted its sender, in the flags the send
 * path is about to store. `muterIds` is `tx.mutedUsers.mutersOf(realm, sender)`: one indexed
 * read of the sender's muters (few, and usually none), rather than a question about every
 * recipient of a large channel; the send path reads it together with its other reads.
 */
export function markReadForMuters(muterIds: readonly number[], flagsByUser: Map<number, number>): void {
  for (const id of muterIds) {
    const flags = flagsByUser.get(id);
    if (flags !== undefined) flagsByUser.set(id, flags | FLAG_BITS.read);
  }
}

/**
 * Marks read every unread message the acting user received from `senderId`, inside the
 * caller's transaction, with an update_message_flags event to the user after commit.
 */
export async function markSenderMessagesRead(ctx: Ctx, tx: Tx, actor: Actor, senderId: number): Promise<void> {
  const conditions: MessageCondition[] = [
    { kind: 'sender', userId: senderId, negated: false },
    { kind: 'flag', mask: FLAG_BITS.read, set: false, negated: false },
  ];
  // Unread messages always have the user's own copy: the copies alone are searched.
  const scope = { userId: actor.user.id, sharedHistoryStreamIds: [] };
  const { ids } = await tx.messages.window(scope, conditions, { anchor: NEWEST, includeAnchor: false, numBefore: NO_LIMIT, numAfter: 0 });
  if (ids.length === 0) return;
  const changed = await tx.messages.setFlags(actor.user.id, ids, FLAG_BITS.read, true);
  await announceFlagUpdate(ctx, tx, actor, { op: 'add', flag: 'read' }, changed);
}
