/**
 * Message retention (zerver/lib/retention.py): channel messages older than their channel's
 * retention period are deleted through the ordinary deletion path, so holders get
 * delete_message events (FL 452) and first_message_id follows. A channel's
 * message_retention_days wins; null follows the realm's; -1 keeps messages forever. Direct
 * messages are kept (the realm's setting would govern them; it defaults to forever).
 */
import { ok } from 'neverthrow';
import { deleteMessages } from '../messages/delete.js';
import type { Ctx } from '../context.js';
import { realmSetting } from '../settings/realm-settings.js';
import type { Realm, Stream } from '../storage/types.js';

/** Messages deleted per transaction, as the reference archives in batches. */
export const RETENTION_BATCH_SIZE = 1000;
const DAY_SECONDS = 86_400;

/** The retention period of a channel in days, or undefined for forever. */
export function retentionDays(realm: Realm, stream: Stream): number | undefined {
  const days = stream.messageRetentionDays ?? realmSetting(realm, 'message_retention_days');
  return days === -1 ? undefined : days;
}

/** Deletes every expired channel message of every realm; returns how many were deleted. */
export async function sweepExpiredMessages(ctx: Ctx): Promise<number> {
  const nowSeconds = Math.floor(ctx.clock.now() / 1000);
  const realms = await ctx.storage.read((tx) => tx.realms.all());
  let deleted = 0;
  for (const realm of realms) {
    const streams = await ctx.storage.read((tx) => tx.streams.list(realm.id));
    for (const stream of streams) {
      const days = retentionDays(realm, stream);
      if (days === undefined) continue;
      const before = nowSeconds - days * DAY_SECONDS;
      // One transaction per batch: a long sweep never holds the store for long.
      let count: number;
      do {
        const batch = await ctx.storage.transaction(async (tx) => {
          const ids = await tx.messages.idsSentBefore(realm.id, stream.id, before, RETENTION_BATCH_SIZE);
          await deleteMessages(ctx, tx, realm, await tx.messages.byIds(realm.id, ids), null);
          return ok(ids.length);
        });
        count = batch.unwrapOr(0);
        deleted += count;
      } while (count === RETENTION_BATCH_SIZE);
    }
  }
  return deleted;
}
