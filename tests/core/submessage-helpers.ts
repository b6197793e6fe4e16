/** Shared pieces of the submessage tests: sending one, reading a message's submessages. */
import { createRealm, doSendMessage, doSendSubmessage, doSubscribe, getMessage, type User } from '@teamchat/core';
import type { ApiSubmessage } from '@teamchat/core';
import type { World } from '../helpers/core.js';
import { must } from '../helpers/core.js';

/** POST /submessage as `user`, with `data` serialised unless it is already text. */
export const submit = (w: World, user: User, messageId: number, data: unknown, msgType = 'widget') =>
  doSendSubmessage(w.ctx, w.as(user), {
    message_id: messageId,
    msg_type: msgType,
    content: typeof data === 'string' ? data : JSON.stringify(data),
  });

/** The message's `submessages` as `viewer` reads them. */
export async function submessagesOf(w: World, viewer: User, messageId: number): Promise<ApiSubmessage[]> {
  const { message } = must(await getMessage(w.ctx, w.as(viewer), { message_id: messageId }));
  return message.submessages;
}

/** The error message of a failed result. */
export function failure(result: { isErr(): boolean; error?: unknown }): string {
  if (!result.isErr()) throw new Error('expected an error');
  return (result.error as { msg: string }).msg;
}

/** A `/poll` message in a second realm of the same server (so its ID is unknown to the first realm). */
export async function otherRealmPoll(c: { w: World }): Promise<number> {
  const { realm, owner } = must(
    await createRealm(c.w.ctx, {
      name: 'Elsewhere',
      url: 'http://elsewhere.example.com',
      subdomain: 'elsewhere',
      owner: { email: 'boss@elsewhere.example.com', fullName: 'Boss', password: 'boss-password' },
    }),
  );
  must(await doSubscribe(c.w.ctx, { realm, user: owner }, { subscriptions: [{ name: 'general' }] }));
  const sent = must(await doSendMessage(c.w.ctx, { realm, user: owner }, { type: 'stream', to: 'general', topic: 't', content: '/poll Theirs?' }));
  return (sent).id;
}
