import { err, ok, type Result } from 'neverthrow';
import { type ApiError, badRequest } from '../errors.js';
import { readableBy } from './readable.js';
import type { Message, Tx, User } from '../storage/types.js';

export const invalidMessage = () => badRequest('Invalid message(s)');

/**
 * access_message: a message the user may read (their copy, or a channel whose history they
 * read). Unknown messages, other realms' and unreadable ones give the same error.
 */
export async function accessMessage(tx: Tx, user: User, messageId: number): Promise<Result<Message, ApiError>> {
  const message = await tx.messages.byId(user.realmId, messageId);
  return message && (await readableIds(tx, user, [message])).length === 1 ? ok(message) : err(invalidMessage());
}

/** Which of the messages the user may read. */
export async function readableIds(tx: Tx, user: User, messages: readonly Message[]): Promise<number[]> {
  const readable = await readableBy(tx, user);
  const ids: number[] = [];
  for (const message of messages) {
    // Without a channel condition the query covers the user's copies only, not shared history.
    const where = message.streamId === null ? [] : [{ kind: 'stream' as const, streamId: message.streamId, negated: false }];
    if (await tx.messages.matches(readable.scope, where, message.id)) ids.push(message.id);
  }
  return ids;
}
