import { err, ok, type Result } from 'neverthrow';
import { type ApiError, badRequest } from '../errors.js';
import { API_FLAGS, SETTABLE_FLAGS, type SettableFlag } from './flags.js';

export type FlagOp = 'add' | 'remove';

/** A checked flag change: which flag, set or cleared. */
export interface FlagRequest {
  op: FlagOp;
  flag: SettableFlag;
}

/**
 * `flag` and `op` as the reference checks them, in its order: an unknown flag, then a flag users
 * may not set, then the operation (FACTS.md 6.7).
 */
export function parseFlagRequest(op: string, flag: string): Result<FlagRequest, ApiError> {
  if (!API_FLAGS.includes(flag)) return err(badRequest(`Invalid flag: '${flag}'`));
  if (!(SETTABLE_FLAGS as readonly string[]).includes(flag)) return err(badRequest(`Flag not editable: '${flag}'`));
  if (op !== 'add' && op !== 'remove') return err(badRequest(`Invalid message flag operation: '${op}'`));
  return ok({ op, flag: flag as SettableFlag });
}

/** Whether the change marks messages as unread: the one that skips unsubscribed channels. */
export const marksUnread = (request: FlagRequest) => request.op === 'remove' && request.flag === 'read';
