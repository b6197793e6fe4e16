import { err, ok, type Result } from 'neverthrow';
import { type ApiError, badRequest, missingArgument } from '../errors.js';
import { FLAG_BITS, type MessageCondition, type MessageScope, type Tx } from '../storage/types.js';

/** The reference's LARGER_THAN_MAX_MESSAGE_ID: the anchor "newest" resolves to it. */
export const NEWEST = 10_000_000_000_000_000;

/** The anchor parameters GET /messages and POST /messages/flags/narrow share. */
export interface AnchorParams {
  anchor?: string;
  anchor_date?: string;
  use_first_unread_anchor?: boolean;
}

/**
 * The anchor as a message ID: `newest`, `oldest`, `first_unread` (the oldest unread match, else
 * newest), `date` (FL 445, with anchor_date) or an integer (negative ones read as 0).
 */
export async function resolveAnchor(
  tx: Tx,
  realmId: number,
  params: AnchorParams,
  scope: MessageScope,
  conditions: readonly MessageCondition[],
): Promise<Result<number, ApiError>> {
  const anchor = params.use_first_unread_anchor ? 'first_unread' : (params.anchor ?? 'newest');
  if (anchor === 'newest') return ok(NEWEST);
  if (anchor === 'oldest') return ok(0);
  if (anchor === 'first_unread') {
    const unread = await tx.messages.window(scope, [...conditions, { kind: 'flag', mask: FLAG_BITS.read, set: false, negated: false }], {
      anchor: 0,
      includeAnchor: false,
      numBefore: 0,
      numAfter: 1,
    });
    return ok(unread.ids[0] ?? NEWEST);
  }
  if (anchor === 'date') {
    if (params.anchor_date === undefined) return err(missingArgument('anchor_date'));
    const at = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(params.anchor_date) ? `${params.anchor_date}T00:00:00Z` : params.anchor_date);
    if (Number.isNaN(at)) return err(badRequest('Invalid anchor_date'));
    const id = await firstMessageAtOrAfter(tx, realmId, scope, conditions, Math.floor(at / 1000));
    return ok(id ?? NEWEST);
  }
  if (!/^-?[0-9]+$/.test(anchor)) return err(badRequest('Invalid anchor'));
  return ok(Math.max(0, Number(anchor)));
}

/** The first matching message sent at or after `seconds` (FL 445 anchor=date). */
async function firstMessageAtOrAfter(tx: Tx, realmId: number, scope: MessageScope, conditions: readonly MessageCondition[], seconds: number): Promise<number | null> {
  // Message IDs grow with time, so the first match at or after the date is found by walking forward.
  let anchor = 0;
  for (;;) {
    const page = await tx.messages.window(scope, conditions, { anchor, includeAnchor: false, numBefore: 0, numAfter: 500 });
    const messages = await tx.messages.byIds(realmId, page.ids);
    const hit = messages.find((m) => m.dateSent >= seconds);
    if (hit) return hit.id;
    if (page.foundNewest || page.ids.length === 0) return null;
    anchor = page.ids[page.ids.length - 1]!;
  }
}
