/**
 * Retention execution: sweepExpiredMessages deletes channel messages older than their
 * channel's retention (or the realm's) through the deletion path, with delete_message events to
 * those who held them; the timer sweeps at start and then at its interval. Time is a fake clock.
 */
import { doSendMessage, doUpdateStream, startRetentionSweeps, sweepExpiredMessages } from '@teamchat/core/internal';
import { describe, expect, it, vi } from 'vitest';
import { must } from '../helpers/core.js';
import { channel, channelWorld, ids, subscribe } from './channel-helpers.js';

type W = Awaited<ReturnType<typeof channelWorld>>;
const DAY = 86_400_000;

async function send(c: W, channelName: string, topic = 'lunch'): Promise<number> {
  return (must(await doSendMessage(c.w.ctx, c.w.as(c.member), { type: 'stream', to: channelName, topic, content: 'hi' }))).id;
}
const exists = (c: W, id: number) => c.w.ctx.storage.read(async (tx) => (await tx.messages.byId(c.w.realm.id, id)) !== undefined);
const clock = (c: W) => c.w.ctx.clock as unknown as { advance(ms: number): void };

describe('sweepExpiredMessages', () => {
  it('deletes what is older than the channel’s retention, telling those who held it, and keeps the rest', async () => {
    const c = await channelWorld();
    await subscribe(c.w, c.w.owner, ['Short', 'Forever', 'Default'], { principals: [c.member.id, c.other.id] });
    for (const [name, value] of [['Short', '2'], ['Forever', '"unlimited"']] as const) {
      must(await doUpdateStream(c.w.ctx, c.w.as(c.w.owner), { stream_id: (await channel(c.w, name)).id, message_retention_days: value }));
    }
    const old = [await send(c, 'Short', 'a'), await send(c, 'Short', 'a'), await send(c, 'Forever'), await send(c, 'Default')];
    clock(c).advance(DAY);
    const recent = await send(c, 'Short', 'a');
    clock(c).advance(DAY + 1000);
    c.drain();

    expect(await sweepExpiredMessages(c.w.ctx)).toBe(2);
    expect(await Promise.all([...old, recent].map((id) => exists(c, id)))).toEqual([false, false, true, true, true]);
    const short = await channel(c.w, 'Short');
    const deletions = c.drain().filter((p) => p.event.type === 'delete_message' && 'message_ids' in p.event);
    expect(deletions.map((p) => p.event)).toEqual([{ type: 'delete_message', message_type: 'stream', stream_id: short.id, topic: 'a', message_ids: [old[0], old[1]] }]);
    expect([...deletions[0]!.userIds].sort((a, b) => a - b)).toEqual(ids(c.member, c.other));
    // The channel's first message moved on.
    expect(short.firstMessageId).toBe(recent);
    // Nothing more is due.
    expect(await sweepExpiredMessages(c.w.ctx)).toBe(0);
  });

  it('follows the realm’s retention for channels that inherit it, and keeps direct messages', async () => {
    const c = await channelWorld();
    await subscribe(c.w, c.member, ['Default', 'Kept']);
    must(await doUpdateStream(c.w.ctx, c.w.as(c.w.owner), { stream_id: (await channel(c.w, 'Kept')).id, message_retention_days: '30' }));
    await c.w.ctx.storage.transaction(async (tx) => {
      await tx.realms.update(c.w.realm.id, { settings: { message_retention_days: 5 } });
      return { isOk: () => true, isErr: () => false, value: undefined } as never;
    });
    const inherited = await send(c, 'Default');
    const kept = await send(c, 'Kept');
    const direct = (must(await doSendMessage(c.w.ctx, c.w.as(c.member), { type: 'private', to: JSON.stringify([c.other.id]), content: 'dm' }))).id;
    clock(c).advance(6 * DAY);
    expect(await sweepExpiredMessages(c.w.ctx)).toBe(1);
    expect([await exists(c, inherited), await exists(c, kept), await exists(c, direct)]).toEqual([false, true, true]);
  });
});

describe('startRetentionSweeps', () => {
  it('sweeps at start and then every interval, until stopped', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const c = await channelWorld();
      await subscribe(c.w, c.w.owner, ['Short'], { principals: [c.member.id] });
      must(await doUpdateStream(c.w.ctx, c.w.as(c.w.owner), { stream_id: (await channel(c.w, 'Short')).id, message_retention_days: '1' }));
      const first = await send(c, 'Short');
      clock(c).advance(2 * DAY);
      const sweeps = startRetentionSweeps(c.w.ctx, { intervalMs: 1000 });
      await sweeps.idle();
      expect(await exists(c, first)).toBe(false);

      const second = await send(c, 'Short');
      clock(c).advance(2 * DAY);
      await vi.advanceTimersByTimeAsync(1000);
      await sweeps.idle();
      expect(await exists(c, second)).toBe(false);

      sweeps.stop();
      const third = await send(c, 'Short');
      clock(c).advance(2 * DAY);
      await vi.advanceTimersByTimeAsync(5000);
      await sweeps.idle();
      expect(await exists(c, third)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
