import { err, ok } from 'neverthrow';
import { accessStreamById } from '../access/channels.js';
import type { Ctx } from '../context.js';
import { badRequest } from '../errors.js';
import { NEWEST } from '../messages/anchor.js';
import type { FlagRequest } from '../messages/flag-request.js';
import { normalizeTopic } from '../messages/normalize.js';
import { readableBy } from '../messages/readable.js';
import { type Actor, userOperation } from '../operation.js';
import { MarkAllAsReadParams, MarkStreamAsReadParams, MarkTopicAsReadParams } from '../schemas/message-flags.js';
import { FLAG_BITS, type MessageCondition, type Tx } from '../storage/types.js';
import { changeFlags } from '../messages/flag-change.js';
import { transactionAs } from '../transaction.js';

const MARK_READ: FlagRequest = { op: 'add', flag: 'read' };
const UNREAD: MessageCondition = { kind: 'flag', mask: FLAG_BITS.read, set: false, negated: false };

/** More messages than any conversation holds: "all of them" as a SQL LIMIT. */
const NO_LIMIT = 1_000_000_000;

/** Messages marked per transaction by POST /mark_all_as_read (the reference's batch size). */
export const MARK_ALL_BATCH_SIZE = 2000;
/** A new batch starts only this long after the request began; then the answer is `complete: false`. */
export const MARK_ALL_BUDGET_MS = 50_000;

/**
 * The newest `limit` unread messages among the user's own copies that match `conditions`.
 * Unread messages always have a copy, so the query runs on the copies and their unread index.
 */
async function unreadIds(tx: Tx, userId: number, conditions: readonly MessageCondition[], limit: number): Promise<number[]> {
  const scope = { userId, sharedHistoryStreamIds: [] };
  return (await tx.messages.window(scope, [...conditions, UNREAD], { anchor: NEWEST, includeAnchor: false, numBefore: limit, numAfter: 0 })).ids;
}

/**
 * POST /mark_all_as_read (deprecated; SHAPES 6.20): marks everything read in batches, newest
 * first, each in its own transaction with its own event, so progress survives a slow request.
 * Past the time budget it stops with `complete: false` and the client repeats the request.
 */
export const doMarkAllAsRead = userOperation(MarkAllAsReadParams, async (ctx, requester: Actor) => {
  const started = ctx.clock.now();
  for (;;) {
    if (ctx.clock.now() - started >= MARK_ALL_BUDGET_MS) return ok({ complete: false });
    const batch = await transactionAs(ctx, requester, async (tx, actor) => {
      const ids = await unreadIds(tx, actor.user.id, [], MARK_ALL_BATCH_SIZE);
      const change = await changeFlags(ctx, tx, actor, await readableBy(tx, actor.user), MARK_READ, ids);
      return change.map(() => ids.length);
    });
    if (batch.isErr()) return err(batch.error);
    if (batch.value < MARK_ALL_BATCH_SIZE) return ok({ complete: true });
  }
});

/** Marks every unread message of the user's that matches `conditions` as read, in one transaction. */
async function markRead(ctx: Ctx, tx: Tx, actor: Actor, conditions: readonly MessageCondition[]) {
  const ids = await unreadIds(tx, actor.user.id, conditions, NO_LIMIT);
  const change = await changeFlags(ctx, tx, actor, await readableBy(tx, actor.user), MARK_READ, ids);
  return change.map(() => ({}));
}

/** POST /mark_stream_as_read (deprecated): the channel's unread messages. Archived channels count too. */
export const doMarkStreamAsRead = userOperation(MarkStreamAsReadParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, actor) => {
    const access = await accessStreamById(tx, actor.user, params.stream_id, { allowArchived: true });
    if (access.isErr()) return err(access.error);
    return markRead(ctx, tx, actor, [{ kind: 'stream', streamId: access.value.stream.id, negated: false }]);
  }),
);

/**
 * POST /mark_topic_as_read (deprecated; API.md 4.13): the topic's unread messages. The empty
 * topic's display name and "(no topic)" name the empty topic; a named topic the user has no
 * message in is refused, as in the reference.
 */
export const doMarkTopicAsRead = userOperation(MarkTopicAsReadParams, async (ctx, requester: Actor, params) => {
  const topic = normalizeTopic(params.topic_name, ctx.config);
  if (topic.isErr()) return err(topic.error);
  return transactionAs(ctx, requester, async (tx, actor) => {
    const access = await accessStreamById(tx, actor.user, params.stream_id, { allowArchived: true });
    if (access.isErr()) return err(access.error);
    const conditions: MessageCondition[] = [
      { kind: 'stream', streamId: access.value.stream.id, negated: false },
      { kind: 'topic', topic: topic.value, negated: false },
    ];
    if (topic.value !== '') {
      const scope = { userId: actor.user.id, sharedHistoryStreamIds: [] };
      const existing = await tx.messages.window(scope, conditions, { anchor: NEWEST, includeAnchor: false, numBefore: 1, numAfter: 0 });
      if (existing.ids.length === 0) return err(badRequest(`No such topic '${topic.value}'`));
    }
    return markRead(ctx, tx, actor, conditions);
  });
});
