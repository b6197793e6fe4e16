/** startBackgroundWork: what an application embedding the core gets without the HTTP server. */
import { closeContext, doCreateScheduledMessage, doSubscribe, getMessages, startBackgroundWork } from '@teamchat/core';
import { ok } from 'neverthrow';
import { expect, it, vi } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';

it('delivers what fell due while nothing ran, and stop waits for the run in progress', async () => {
  const w = await makeWorld();
  must(await doSubscribe(w.ctx, w.as(w.owner), { subscriptions: '[{"name":"general"}]' }));
  const now = Math.floor(Date.now() / 1000);
  must(await doCreateScheduledMessage(w.ctx, w.as(w.owner), { type: 'stream', to: '1', topic: 't', content: 'overdue', scheduled_delivery_timestamp: String(now + 60) }));
  // Due a minute ago, as if the process had been down when it fell due.
  await w.ctx.storage.transaction(async (tx) => {
    const [message] = await tx.scheduledMessages.list(w.realm.id, w.owner.id);
    await tx.scheduledMessages.update(w.realm.id, w.owner.id, message!.id, { ...message!, deliveryTimestamp: now - 60 });
    return ok(undefined);
  });

  const work = startBackgroundWork(w.ctx);
  const contents = async () =>
    must(await getMessages(w.ctx, w.as(w.owner), { anchor: 'newest', num_before: '5', num_after: '0' })).messages.map((m) => m.content);
  await vi.waitFor(async () => expect(await contents()).toEqual(['<p>overdue</p>']));
  await work.stop();

  expect(await w.ctx.storage.read((tx) => tx.scheduledMessages.list(w.realm.id, w.owner.id))).toEqual([]);
  // Stopping twice is harmless, and the context closes after it.
  await work.stop();
  await closeContext(w.ctx);
});
