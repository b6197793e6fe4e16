/** startBackgroundWork: what an application embedding the core gets without the HTTP server. */
import { closeContext, doSubscribe, getMessages, startBackgroundWork } from '@teamchat/core';
import { expect, it, vi } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import { scheduleOverdue } from './scheduled-helpers.js';

it('delivers what fell due while nothing ran, and stop waits for the run in progress', async () => {
  const w = await makeWorld();
  must(await doSubscribe(w.ctx, w.as(w.owner), { subscriptions: [{"name":"general"}] }));
  await scheduleOverdue(w, 'overdue');

  const work = startBackgroundWork(w.ctx);
  const contents = async () =>
    must(await getMessages(w.ctx, w.as(w.owner), { anchor: 'newest', num_before: 5, num_after: 0 })).messages.map((m) => m.content);
  await vi.waitFor(async () => expect(await contents()).toEqual(['<p>overdue</p>']));
  await work.stop();

  expect(await w.ctx.storage.read((tx) => tx.scheduledMessages.list(w.realm.id, w.owner.id))).toEqual([]);
  // Stopping twice is harmless, and the context closes after it.
  await work.stop();
  await closeContext(w.ctx);
});
