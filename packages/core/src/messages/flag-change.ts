import { err, ok, type Result } from 'neverthrow';
import type { Ctx } from '../context.js';
import { type ApiError, badRequest } from '../errors.js';
import { announceFlagUpdate } from './flag-events.js';
import { type FlagRequest, marksUnread } from './flag-request.js';
import type { Readable } from './readable.js';
import type { Actor } from '../operation.js';
import { FLAG_BITS, type Tx } from '../storage/types.js';

export interface FlagChange {
  /** The messages whose flag changed, ascending. */
  changed: number[];
  /** Only when marking unread: channels whose messages were skipped (ascending). */
  ignoredChannels?: number[];
}

/** How a readable message without the user's copy shows: read, historical (as GET /messages shows it). */
const IMPLIED_FLAGS = FLAG_BITS.read | FLAG_BITS.historical;

/**
 * Sets or clears a flag on messages the user may read, inside the caller's transaction, and
 * announces what changed. Every ID must be readable ("Invalid message(s)" otherwise, before
 * anything is written). A readable message the user never received gets a `historical` copy
 * when the change makes its flags differ from how it already shows. Marking unread skips
 * channels the user is not subscribed to: unread messages are always in subscribed channels.
 */
export async function changeFlags(
  ctx: Ctx,
  tx: Tx,
  actor: Actor,
  readable: Readable,
  request: FlagRequest,
  messageIds: readonly number[],
): Promise<Result<FlagChange, ApiError>> {
  const { realm, user } = actor;
  const ids = [...new Set(messageIds)];
  const messages = new Map((await tx.messages.byIds(realm.id, ids)).map((m) => [m.id, m]));
  const copies = await tx.messages.flagsOf(user.id, ids);
  const shared = new Set(readable.scope.sharedHistoryStreamIds);
  for (const id of ids) {
    const message = messages.get(id);
    const readableHistory = message?.type === 'stream' && shared.has(message.streamId!);
    if (!message || !(copies.has(id) || readableHistory)) return err(badRequest('Invalid message(s)'));
  }

  let targets = ids;
  const ignored = new Set<number>();
  if (marksUnread(request)) {
    targets = ids.filter((id) => {
      const { type, streamId } = messages.get(id)!;
      if (type !== 'stream' || readable.subscribedStreamIds.has(streamId!)) return true;
      ignored.add(streamId!);
      return false;
    });
  }

  const bit = FLAG_BITS[request.flag];
  const on = request.op === 'add';
  const changed = await tx.messages.setFlags(user.id, targets.filter((id) => copies.has(id)), bit, on);
  const historicalFlags = on ? IMPLIED_FLAGS | bit : IMPLIED_FLAGS & ~bit;
  if (historicalFlags !== IMPLIED_FLAGS) {
    for (const id of targets.filter((id) => !copies.has(id))) {
      await tx.messages.addRecipients(id, [{ userId: user.id, flags: historicalFlags }]);
      changed.push(id);
    }
  }
  changed.sort((a, b) => a - b);
  await announceFlagUpdate(ctx, tx, actor, request, changed);
  return ok({ changed, ...(marksUnread(request) ? { ignoredChannels: [...ignored].sort((a, b) => a - b) } : {}) });
}
