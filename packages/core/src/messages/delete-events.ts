import type { Ctx } from '../context.js';
import { publishOnCommit } from '../events/publish.js';
import type { DeletedMessagesPlace } from '../events/union/messages.js';
import type { Message, Realm, Tx } from '../storage/types.js';

/** Clients with bulk_message_deletion get `message_ids`; the others one event per message. */
const BULK = { onlyIf: { capability: 'bulk_message_deletion', declared: true } } as const;
const SINGLE = { onlyIf: { capability: 'bulk_message_deletion', declared: false } } as const;

/**
 * delete_message events (SHAPES.md 4.4): one per conversation and group of users holding the
 * same messages, each user told only of the messages they held. Clients with
 * bulk_message_deletion get `message_ids`; the others one event per message with `message_id`.
 */
export function announceDeletion(ctx: Ctx, tx: Tx, realm: Realm, messages: readonly Message[], heldBy: ReadonlyMap<number, readonly number[]>): void {
  const conversations = new Map<string, Message[]>();
  for (const message of messages) {
    const key = message.type === 'stream' ? `s${message.streamId}:${message.topic}` : `d${message.dmKey}`;
    conversations.set(key, [...(conversations.get(key) ?? []), message]);
  }
  for (const group of conversations.values()) {
    const ids = new Set(group.map((m) => m.id));
    const sample = group[0]!;
    const where: DeletedMessagesPlace =
      sample.type === 'stream' ? { message_type: 'stream', stream_id: sample.streamId!, topic: sample.topic } : { message_type: 'private' };
    // Users holding the same messages of this conversation share one event.
    const byIds = new Map<string, number[]>();
    for (const [userId, held] of heldBy) {
      const mine = held.filter((id) => ids.has(id)).sort((a, b) => a - b);
      if (mine.length > 0) byIds.set(mine.join(','), [...(byIds.get(mine.join(',')) ?? []), userId]);
    }
    for (const [key, userIds] of byIds) {
      const messageIds = key.split(',').map(Number);
      publishOnCommit(ctx, tx, { realmId: realm.id, userIds, event: { type: 'delete_message', ...where, message_ids: messageIds }, tailoring: BULK });
      for (const id of messageIds) {
        publishOnCommit(ctx, tx, { realmId: realm.id, userIds, event: { type: 'delete_message', ...where, message_id: id }, tailoring: SINGLE });
      }
    }
  }
}
