/**
 * The move part of PATCH /messages/{id}: which messages a propagate_mode takes, the move time
 * limits (FL 505), and who gains or loses the moved messages when they change channel.
 */
import { err, ok, type Result } from 'neverthrow';
import { hasContentAccess } from '../access/channel-rules.js';
import { ApiError } from '../errors.js';
import { moveLimitPassed, moveLimitSeconds, pastMoveLimit } from './permissions.js';
import type { Readable } from '../queries/messages.js';
import type { PropagateMode } from '../schemas/message-edit.js';
import { FLAG_BITS, type Message, type Realm, type Stream, type Tx, type User } from '../storage/types.js';

/** The prefix of a resolved topic. */
export const RESOLVED_TOPIC_PREFIX = '✔ ';

/** Whether a topic change only resolves or unresolves the topic. */
export const isResolveChange = (from: string, to: string) => to === RESOLVED_TOPIC_PREFIX + from || from === RESOLVED_TOPIC_PREFIX + to;

/**
 * The messages a move takes, ascending: the target alone (change_one), or with the later
 * (change_later) or all (change_all) messages of its topic, matched case-insensitively, among
 * those the user may read.
 */
export async function messagesToMove(tx: Tx, realm: Realm, user: User, target: Message, mode: PropagateMode, readable: Readable): Promise<Message[]> {
  if (mode === 'change_one') return [target];
  let ids = await tx.messages.topicMessageIds(realm.id, target.streamId!, target.topic);
  if (mode === 'change_later') ids = ids.filter((id) => id >= target.id);
  if (!readable.scope.sharedHistoryStreamIds.includes(target.streamId!)) {
    const copies = await tx.messages.flagsOf(user.id, ids);
    ids = ids.filter((id) => copies.has(id));
  }
  return tx.messages.byIds(realm.id, ids);
}

/**
 * The move time limits for users below moderator. With change_all, a topic only partly within
 * the limit gives MOVE_MESSAGES_TIME_LIMIT_EXCEEDED with what may be moved (also when the
 * target itself is past it, FL 505); otherwise the target must be within the limit.
 */
export function checkMoveTimeLimit(
  realm: Pick<Realm, 'settings'>,
  user: User,
  target: Message,
  moved: readonly Message[],
  mode: PropagateMode,
  change: { topic: boolean; channel: boolean },
  nowSeconds: number,
): Result<void, ApiError> {
  const limit = moveLimitSeconds(realm, user, change.topic, change.channel);
  if (limit === null) return ok(undefined);
  if (mode !== 'change_all') return pastMoveLimit(target, nowSeconds, limit) ? err(moveLimitPassed(change.channel)) : ok(undefined);
  const allowed = moved.filter((m) => !pastMoveLimit(m, nowSeconds, limit));
  if (allowed.length === moved.length) return ok(undefined);
  if (allowed.length === 0) return err(moveLimitPassed(change.channel));
  return err(
    new ApiError('MOVE_MESSAGES_TIME_LIMIT_EXCEEDED', `You only have permission to move the ${allowed.length}/${moved.length} most recent messages in this topic.`, {
      first_message_id_allowed_to_move: allowed[0]!.id,
      total_messages_allowed_to_move: allowed.length,
      total_messages_in_topic: moved.length,
    }),
  );
}

/**
 * Copies after a channel move: users who may not read the new channel lose theirs, and the
 * subscribers of a channel whose history is not shared get read copies, since they could not
 * see the messages otherwise.
 */
export async function moveCopies(tx: Tx, realm: Realm, users: ReadonlyMap<number, User>, messageIds: readonly number[], to: Stream): Promise<void> {
  const subscribers = new Set(await tx.subscriptions.activeSubscriberIds(realm.id, to.id));
  for (const messageId of messageIds) {
    const copies = await tx.messages.recipients(messageId);
    const losing = copies.map((c) => c.userId).filter((id) => {
      const user = users.get(id);
      return !user || !hasContentAccess(user, to, subscribers.has(id));
    });
    await tx.messages.removeRecipients(messageId, losing);
    if (to.historyPublicToSubscribers) continue;
    const holders = new Set(copies.map((c) => c.userId));
    const gaining = [...subscribers].filter((id) => !holders.has(id) && users.get(id)?.isActive);
    await tx.messages.addRecipients(messageId, gaining.map((userId) => ({ userId, flags: FLAG_BITS.read })));
  }
}
