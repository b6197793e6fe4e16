import { err, ok } from 'neverthrow';
import { badRequest } from '../errors.js';
import { resolveAnchor } from '../messages/anchor.js';
import { marksUnread, parseFlagRequest } from '../messages/flag-request.js';
import { canonicalNarrow } from '../messages/narrow.js';
import { narrowContextFor, readableBy } from '../messages/readable.js';
import { resolveNarrow } from '../messages/resolve-narrow.js';
import { type Actor, userOperation } from '../operation.js';
import { UpdateMessageFlagsForNarrowParams, UpdateMessageFlagsParams } from '../schemas/message-flags.js';
import { changeFlags } from '../messages/flag-change.js';
import { transactionAs } from '../transaction.js';

/** The most messages one narrow update touches (the reference's MAX_MESSAGES_PER_UPDATE). */
export const MAX_MESSAGES_PER_UPDATE = 5000;

/**
 * POST /messages/flags (API.md 4.16, SHAPES.md 6.6): `messages` lists the IDs whose flag
 * changed; `ignored_because_not_subscribed_channels` only when marking unread.
 */
export const doUpdateMessageFlags = userOperation(UpdateMessageFlagsParams, async (ctx, requester: Actor, params) => {
  const request = parseFlagRequest(params.op, params.flag);
  if (request.isErr()) return err(request.error);
  return transactionAs(ctx, requester, async (tx, actor) => {
    const readable = await readableBy(tx, actor.user);
    const change = await changeFlags(ctx, tx, actor, readable, request.value, params.messages);
    if (change.isErr()) return err(change.error);
    const { changed, ignoredChannels } = change.value;
    return ok({ messages: changed, ...(ignoredChannels ? { ignored_because_not_subscribed_channels: ignoredChannels } : {}) });
  });
});

/**
 * POST /messages/flags/narrow (SHAPES.md 6.7, FL 155): the flag change over a window of a narrow,
 * chosen exactly as GET /messages chooses it. The window is capped at MAX_MESSAGES_PER_UPDATE;
 * clients page on with first/last_processed_id.
 */
export const doUpdateMessageFlagsForNarrow = userOperation(UpdateMessageFlagsForNarrowParams, async (ctx, requester: Actor, params) => {
  if (params.num_before > 0 && params.num_after > 0 && !params.include_anchor) {
    return err(badRequest('The anchor can only be excluded at an end of the range'));
  }
  // The reference's clamp: each side keeps at least half of the cap.
  const half = MAX_MESSAGES_PER_UPDATE / 2;
  const numBefore = Math.min(params.num_before, Math.max(MAX_MESSAGES_PER_UPDATE - params.num_after, half));
  const numAfter = Math.min(params.num_after, Math.max(MAX_MESSAGES_PER_UPDATE - numBefore, half));
  const terms = canonicalNarrow(params.narrow as never);
  if (terms.isErr()) return err(terms.error);
  const request = parseFlagRequest(params.op, params.flag);
  if (request.isErr()) return err(request.error);

  return transactionAs(ctx, requester, async (tx, actor) => {
    const readable = await readableBy(tx, actor.user);
    const conditions = await resolveNarrow(terms.value, narrowContextFor(tx, actor.realm, actor.user, readable));
    if (conditions.isErr()) return err(conditions.error);
    const anchor = await resolveAnchor(tx, actor.realm.id, { anchor: params.anchor }, readable.scope, conditions.value);
    if (anchor.isErr()) return err(anchor.error);
    const window = await tx.messages.window(readable.scope, conditions.value, {
      anchor: anchor.value,
      includeAnchor: params.include_anchor,
      numBefore,
      numAfter,
    });
    const change = await changeFlags(ctx, tx, actor, readable, request.value, window.ids);
    if (change.isErr()) return err(change.error);
    return ok({
      processed_count: window.ids.length,
      updated_count: change.value.changed.length,
      first_processed_id: window.ids[0] ?? null,
      last_processed_id: window.ids[window.ids.length - 1] ?? null,
      found_oldest: window.foundOldest,
      found_newest: window.foundNewest,
      ...(marksUnread(request.value) ? { ignored_because_not_subscribed_channels: change.value.ignoredChannels } : {}),
    });
  });
});
