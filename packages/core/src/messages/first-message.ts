import { activeUsers, metadataAudience } from '../access/channels.js';
import { announceStreamUpdate } from '../channels/events.js';
import type { Ctx } from '../context.js';
import type { Realm, Tx } from '../storage/types.js';

/**
 * Re-reads the oldest message of each channel after messages left it (deleted or moved away)
 * or arrived through a move, and records and announces a changed `first_message_id` (FL 256)
 * to the users who may see the channel.
 */
export async function refreshFirstMessageIds(ctx: Ctx, tx: Tx, realm: Realm, streamIds: Iterable<number>): Promise<void> {
  for (const streamId of new Set(streamIds)) {
    const stream = await tx.streams.byId(realm.id, streamId);
    if (!stream) continue;
    const first = await tx.messages.firstMessageId(realm.id, streamId);
    if (first === stream.firstMessageId) continue;
    await tx.streams.update(realm.id, streamId, { firstMessageId: first });
    const subscribers = new Set(await tx.subscriptions.activeSubscriberIds(realm.id, streamId));
    announceStreamUpdate(ctx, tx, realm, stream, metadataAudience(await activeUsers(tx, realm.id), stream, subscribers), 'first_message_id', first);
  }
}
