/** Deleting messages, for the operations that delete (one message, a topic, a deactivated user's) and the retention sweep. */
import type { Ctx } from '../context.js';
import type { Message, Realm, Tx, User } from '../storage/types.js';
import { removeUnlinked } from '../uploads/remove.js';
import { schedulePushRemoval } from '../push/dispatch.js';
import { readableIds } from './access.js';
import { announceDeletion } from './delete-events.js';
import { refreshFirstMessageIds } from './first-message.js';
import { Audiences } from './holders.js';

/**
 * Deletes messages with their copies and reactions, and the uploads only they linked. Everyone who held them gets delete_message
 * events after commit; the deleter only for the messages they could read (FL 457). Channels
 * whose oldest message went get their new first_message_id.
 */
export async function deleteMessages(ctx: Ctx, tx: Tx, realm: Realm, messages: readonly Message[], deleter: User | null): Promise<void> {
  if (messages.length === 0) return;
  const audiences = await Audiences.load(tx, realm.id);
  const streams = new Map((await tx.streams.list(realm.id)).map((s) => [s.id, s]));
  const heldBy = await audiences.byUser(messages, streams);
  if (deleter) {
    const visible = await readableIds(tx, deleter, messages);
    if (visible.length > 0) heldBy.set(deleter.id, [...new Set([...(heldBy.get(deleter.id) ?? []), ...visible])]);
  }
  const uploads = await tx.attachments.linkedTo(messages.map((m) => m.id));
  await tx.messages.delete(realm.id, messages.map((m) => m.id));
  // A file goes with the last message linking it (API.md 4.20).
  await removeUnlinked(ctx, tx, realm.id, uploads);
  announceDeletion(ctx, tx, realm, messages, heldBy);
  await schedulePushRemoval(ctx, tx, realm, [...heldBy.keys()], messages.map((m) => m.id));
  await refreshFirstMessageIds(ctx, tx, realm, messages.flatMap((m) => (m.streamId === null ? [] : [m.streamId])));
}

/** Which of a user's messages the deactivation actions delete (API.md 4.14). */
export interface SenderDeletion {
  publicChannels: boolean;
  privateChannels: boolean;
  direct: boolean;
}

/** Deletes the kinds of messages `sender` sent, as a deactivation action of `deleter`. */
export async function deleteMessagesBySender(ctx: Ctx, tx: Tx, realm: Realm, sender: User, kinds: SenderDeletion, deleter: User): Promise<void> {
  if (!kinds.publicChannels && !kinds.privateChannels && !kinds.direct) return;
  const streams = new Map((await tx.streams.list(realm.id)).map((s) => [s.id, s]));
  const messages = (await tx.messages.byIds(realm.id, await tx.messages.idsBySender(realm.id, sender.id))).filter((m) => {
    if (m.type === 'private') return kinds.direct;
    return streams.get(m.streamId!)?.inviteOnly ? kinds.privateChannels : kinds.publicChannels;
  });
  await deleteMessages(ctx, tx, realm, messages, deleter);
}
