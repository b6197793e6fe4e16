/** Shared pieces of the reminder tests: a realm with Bob and Cleo, a public channel and a clock. */
import { doCreateReminder, doSendMessage, doSubscribe, type PublishedEvent, type User } from '@teamchat/core';
import { makeWorld, must, type World } from '../helpers/core.js';
import { fakeClock, T0 } from './fixtures.js';

export interface ReminderWorld {
  w: World;
  clock: ReturnType<typeof fakeClock>;
  bob: User;
  cleo: User;
  general: number;
  published: PublishedEvent[];
  /** Sends a message as `user` and answers its ID. */
  send(user: User, params: Record<string, string>): Promise<number>;
  remind(user: User, messageId: number, extra?: Record<string, string>): ReturnType<typeof doCreateReminder>;
  /** Unix seconds, `offset` after the clock's start. */
  at(offset: number): number;
}

export async function reminderWorld(): Promise<ReminderWorld> {
  const clock = fakeClock();
  const w = await makeWorld({ clock, config: { timers: false } });
  const bob = await w.addUser({ email: 'bob@example.com', fullName: 'Bob' });
  const cleo = await w.addUser({ email: 'cleo@example.com', fullName: 'Cleo' });
  must(await doSubscribe(w.ctx, w.as(w.owner), { subscriptions: [{"name":"general"}], principals: [w.owner.id,bob.id,cleo.id] }));
  const general = (await w.ctx.storage.read((tx) => tx.streams.byName(w.realm.id, 'general')))!.id;
  const published: PublishedEvent[] = [];
  w.ctx.events.subscribe((p) => void published.push(p));
  const at = (offset: number) => Math.floor(T0 / 1000) + offset;
  return {
    w,
    clock,
    bob,
    cleo,
    general,
    published,
    at,
    send: async (user, params) => (must(await doSendMessage.fromTransport(w.ctx, w.as(user), params))).id,
    remind: (user, messageId, extra = {}) =>
      doCreateReminder(w.ctx, w.as(user), { message_id: messageId, scheduled_delivery_timestamp: at(3600), ...extra }),
  };
}
