/** The scheduler: one timer for the next due scheduled message, re-armed by new messages. */
import { doSubscribe, getMessages, startScheduledDelivery } from '@teamchat/core/internal';
import { afterEach, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import { doCreateScheduledMessage } from '@teamchat/core/internal';
import { scheduleOverdue } from './scheduled-helpers.js';

const stops: Array<() => void> = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('delivers a message at its time, armed by the creation event, and overdue ones at start', async () => {
  const w = await makeWorld();
  must(await doSubscribe(w.ctx, w.as(w.owner), { subscriptions: [{"name":"general"}] }));
  // Overdue before the scheduler starts (the server was down).
  await scheduleOverdue(w, 'late');
  const scheduler = startScheduledDelivery(w.ctx);
  stops.push(() => scheduler.stop());
  await scheduler.idle();
  const sent = async () => (must(await getMessages(w.ctx, w.as(w.owner), { anchor: 'newest', num_before: 10, num_after: 0 })) as { messages: Array<{ content: string }> }).messages.map((m) => m.content);
  expect(await sent()).toEqual(['<p>late</p>']);

  must(await doCreateScheduledMessage(w.ctx, w.as(w.owner), { type: 'stream', to: 1, topic: 't', content: 'soon', scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 1 }));
  await wait(2200);
  await scheduler.idle();
  expect(await sent()).toEqual(['<p>late</p>', '<p>soon</p>']);
});
