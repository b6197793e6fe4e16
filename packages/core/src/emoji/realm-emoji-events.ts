import type { Ctx } from '../context.js';
import { activeUserIds, publishOnCommit } from '../events/publish.js';
import type { RealmEmojiEvent } from '../events/union/realm.js';
import { formatRealmEmoji, realmEmojiDict } from '../format/realm-emoji.js';
import type { RealmEmoji, Realm, Tx } from '../storage/types.js';

export type RealmEmojiChange = { op: 'add'; emoji: RealmEmoji } | { op: 'deactivate'; emoji: RealmEmoji };

/**
 * The `realm_emoji` event for a change, to every active user of the realm (SHAPES.md 4.23).
 * Queues whose client declared `individual_emoji_changes` get the change alone (op `add`, or
 * `update_one` with the changed property); the others get op `update` with every emoji, as
 * stored after the change (read inside the transaction, so it includes it).
 */
export async function announceRealmEmoji(ctx: Ctx, tx: Tx, realm: Realm, change: RealmEmojiChange): Promise<void> {
  const individual: RealmEmojiEvent =
    change.op === 'add'
      ? { type: 'realm_emoji', op: 'add', emoji: formatRealmEmoji(change.emoji) }
      : { type: 'realm_emoji', op: 'update_one', emoji_id: String(change.emoji.id), data: { deactivated: true } };
  publishOnCommit(ctx, tx, {
    realmId: realm.id,
    userIds: await activeUserIds(tx, realm.id),
    event: { type: 'realm_emoji', op: 'update', realm_emoji: realmEmojiDict(await tx.realmEmoji.list(realm.id)) },
    tailoring: { byCapability: { capability: 'individual_emoji_changes', declared: individual } },
  });
}
