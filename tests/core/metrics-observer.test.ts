/**
 * The metrics hook of the context: with an observer, sends and storage timings are reported
 * (the storage wrapper covers every driver) and the scrape-time numbers are right; the wrapped
 * storage keeps what its driver offers besides the contract (readiness still reads the schema).
 */
import {
  checkReadiness,
  countSchedulerBacklog,
  doCreateReminder,
  doRegister,
  doSendMessage,
  doSubscribe,
  getEvents,
  getMessages,
  type MetricsObserver,
  queueMetrics,
} from '@teamchat/core';
import { err, ok } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import { scheduleOverdue } from './scheduled-helpers.js';

/** Records every report, for the assertions. */
function recorder() {
  const seen = { sent: [] as string[], transactions: [] as { seconds: number; commit: number | undefined }[], reads: [] as number[] };
  const observer: MetricsObserver = {
    messageSent: (kind) => seen.sent.push(kind),
    storageTransaction: (seconds, commit) => seen.transactions.push({ seconds, commit }),
    storageRead: (seconds) => seen.reads.push(seconds),
  };
  return { seen, observer };
}

describe('the metrics observer', () => {
  it('hears each committed send, with its kind, and times transactions, commits and reads', async () => {
    const { seen, observer } = recorder();
    const w = await makeWorld({ metrics: observer });
    must(await doSubscribe(w.ctx, w.as(w.owner), { subscriptions: [{ name: 'general' }] }));
    const member = await w.addUser({ email: 'm@example.com', fullName: 'Mia Member' });
    seen.sent.length = 0;
    seen.transactions.length = 0;
    seen.reads.length = 0;

    must(await doSendMessage(w.ctx, w.as(w.owner), { type: 'stream', to: 'general', topic: 'hi', content: 'hello' }));
    must(await doSendMessage(w.ctx, w.as(w.owner), { type: 'direct', to: JSON.stringify([member.id]), content: 'psst' }));
    expect(seen.sent).toEqual(['stream', 'private']);
    expect(seen.transactions.length).toBeGreaterThanOrEqual(2);
    for (const { seconds, commit } of seen.transactions) {
      expect(seconds).toBeGreaterThanOrEqual(0);
      expect(commit).toBeGreaterThanOrEqual(0);
      expect(commit!).toBeLessThanOrEqual(seconds);
    }
    expect(seen.reads).toEqual([]);
    must(await getMessages(w.ctx, w.as(w.owner), { anchor: 'newest', num_before: 10, num_after: 0 }));
    expect(seen.reads).toEqual([expect.any(Number)]);
  });

  it('reports no commit for a transaction that rolled back or threw, and no send for a refused one', async () => {
    const { seen, observer } = recorder();
    const w = await makeWorld({ metrics: observer });
    seen.transactions.length = 0;
    expect(await w.ctx.storage.transaction(async () => err('no'))).toEqual(err('no'));
    await expect(w.ctx.storage.transaction(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(seen.transactions).toEqual([
      { seconds: expect.any(Number), commit: undefined },
      { seconds: expect.any(Number), commit: undefined },
    ]);
    const refused = await doSendMessage(w.ctx, w.as(w.owner), { type: 'stream', to: 'nowhere', topic: 'hi', content: 'hello' });
    expect(refused.isErr()).toBe(true);
    expect(seen.sent).toEqual([]);
    expect(await w.ctx.storage.transaction(async () => ok(1))).toEqual(ok(1));
  });

  it('leaves the storage unwrapped without an observer, and a wrapped one still answers readiness', async () => {
    const plain = await makeWorld();
    expect(plain.ctx.metrics).toBeUndefined();
    const { observer } = recorder();
    const w = await makeWorld({ metrics: observer });
    expect(await checkReadiness(w.ctx.storage)).toEqual({ ready: true });
  });
});

describe('numbers read on scrape', () => {
  it('counts registered queues and the long-polls waiting on them', async () => {
    const w = await makeWorld();
    expect(queueMetrics(w.ctx)).toEqual({ queues: 0, waitingPolls: 0 });
    const state = must(await doRegister(w.ctx, w.as(w.owner), { event_types: ['message'] })) as { queue_id: string; last_event_id: number };
    expect(queueMetrics(w.ctx)).toEqual({ queues: 1, waitingPolls: 0 });
    const polling = getEvents(w.ctx, w.as(w.owner), { queue_id: state.queue_id, last_event_id: state.last_event_id });
    await expect.poll(() => queueMetrics(w.ctx).waitingPolls).toBe(1);
    w.ctx.queues.shutdown();
    await polling;
    expect(queueMetrics(w.ctx).waitingPolls).toBe(0);
  });

  it("counts the scheduler's backlog: due scheduled messages and reminders not yet sent, not future ones", async () => {
    const w = await makeWorld();
    must(await doSubscribe(w.ctx, w.as(w.owner), { subscriptions: [{ name: 'general' }] }));
    expect(await countSchedulerBacklog(w.ctx)).toEqual({ scheduledMessages: 0, reminders: 0 });
    await scheduleOverdue(w, 'late');
    await scheduleOverdue(w, 'later');
    const sent = must(await doSendMessage(w.ctx, w.as(w.owner), { type: 'stream', to: 'general', topic: 'hi', content: 'hello' }));
    const now = Math.floor(Date.now() / 1000);
    must(await doCreateReminder(w.ctx, w.as(w.owner), { message_id: sent.id, scheduled_delivery_timestamp: now + 3600 }));
    must(await doCreateReminder(w.ctx, w.as(w.owner), { message_id: sent.id, scheduled_delivery_timestamp: now + 7200 }));
    expect(await countSchedulerBacklog(w.ctx)).toEqual({ scheduledMessages: 2, reminders: 0 });
    // One reminder falls due (moved into the past in the store, as the API refuses past times).
    await w.ctx.storage.transaction(async (tx) => {
      const [first] = await tx.scheduledMessages.list(w.realm.id, w.owner.id, 'remind');
      await tx.scheduledMessages.update(w.realm.id, w.owner.id, first!.id, { ...first!, deliveryTimestamp: now - 60 });
      return ok(undefined);
    });
    expect(await countSchedulerBacklog(w.ctx)).toEqual({ scheduledMessages: 2, reminders: 1 });
  });
});
