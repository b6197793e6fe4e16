/** DELETE /attachments/{id}, the unused-upload sweep and its timer, in the core. */
import { doCreateScheduledMessage, doDeleteAttachment, doUpdateMessage, memoryBlobStore, startUploadSweep, sweepUnusedUploads } from '@teamchat/core/internal';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { must } from '../helpers/core.js';
import { recipientsOf } from './channel-helpers.js';
import { attachmentsOf, canDownload, file, linkTo, uploadAs } from './attachment-helpers.js';
import { expectBadRequest, expectError, fakeClock, secondRealm } from './fixtures.js';
import { type MessageWorld, messageWorld } from './message-helpers.js';

const DAY = 24 * 60 * 60 * 1000;
let m: MessageWorld;
let blobs: ReturnType<typeof memoryBlobStore>;
let clock: ReturnType<typeof fakeClock>;
beforeEach(async () => {
  blobs = memoryBlobStore();
  clock = fakeClock();
  m = await messageWorld({ uploads: blobs, clock });
});

const remove = (user: MessageWorld['member'] | null, id: unknown) => doDeleteAttachment.fromTransport(m.w.ctx, m.w.as(user), { attachment_id: id });

describe('DELETE /attachments/{attachment_id}', () => {
  it('the owner deletes a file, linked or not: row and blob go, attachment/remove to the owner; the message stays', async () => {
    const up = await uploadAs(m.w, m.member, file('a.txt', '123'));
    const kept = await uploadAs(m.w, m.member, file('b.txt', '12'));
    const id = await m.post(m.member, linkTo(up));
    m.drain();
    expect(must(await remove(m.member, 1))).toEqual({});
    const published = m.drain();
    expect(published.map((p) => p.event)).toEqual([{ type: 'attachment', op: 'remove', attachment: { id: 1 }, upload_space_used: 2 }]);
    expect(recipientsOf(published, 'attachment')).toEqual([[m.member.id]]);
    expect(blobs.keys()).toEqual([kept.pathId]);
    expect(await canDownload(m.w, m.other, up.pathId)).toBe(false);
    expect(await m.fetchIds(m.member)).toContain(id);
  });

  it('unknown IDs, other users\' and other realms\' files are all "Invalid attachment"; nothing changes', async () => {
    await uploadAs(m.w, m.member, file('a.txt'));
    const { realm, owner } = await secondRealm(m.w.ctx);
    m.drain();
    expectBadRequest(await remove(m.member, 99), 'Invalid attachment');
    expectBadRequest(await remove(m.admin, 1), 'Invalid attachment');
    expectBadRequest(await doDeleteAttachment(m.w.ctx, { realm, user: owner }, { attachment_id: 1 }), 'Invalid attachment');
    expectBadRequest(await remove(m.member, 'one'), 'attachment_id is not an integer');
    expectError(await remove(null, 1), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    expect(m.drain()).toEqual([]);
    expect(blobs.keys()).toHaveLength(1);
  });
});

describe('sweeping unused uploads', () => {
  it('deletes files no message links once older than the grace period (three weeks by default)', async () => {
    const unused = await uploadAs(m.w, m.member, file('unused.txt'));
    const linked = await uploadAs(m.w, m.member, file('linked.txt'));
    await m.post(m.member, linkTo(linked));
    clock.advance(10 * DAY);
    const young = await uploadAs(m.w, m.other, file('young.txt'));
    clock.advance(11 * DAY - 1000);
    expect(await sweepUnusedUploads(m.w.ctx)).toBe(0);
    clock.advance(2000);
    m.drain();
    expect(await sweepUnusedUploads(m.w.ctx)).toBe(1);
    expect(m.drain().map((p) => [p.event.op, p.userIds])).toEqual([['remove', [m.member.id]]]);
    expect(blobs.keys().sort()).toEqual([linked.pathId, young.pathId].sort());
    expect(unused.pathId).not.toBe(young.pathId);
    clock.advance(11 * DAY);
    expect(await sweepUnusedUploads(m.w.ctx)).toBe(1);
    expect(blobs.keys()).toEqual([linked.pathId]);
  });

  it('a detached file counts from its upload; a file a pending scheduled message links is kept', async () => {
    const detached = await uploadAs(m.w, m.member, file('detached.txt'));
    const scheduled = await uploadAs(m.w, m.member, file('scheduled.txt'));
    const id = await m.post(m.member, linkTo(detached));
    must(await doUpdateMessage(m.w.ctx, m.w.as(m.member), { message_id: id, content: 'no file' }));
    must(await doCreateScheduledMessage(m.w.ctx, m.w.as(m.member), {
      type: 'stream', to: m.general.id, topic: 'later', content: linkTo(scheduled),
      scheduled_delivery_timestamp: Math.floor(clock.now() / 1000) + 60 * DAY / 1000,
    }));
    clock.advance(22 * DAY);
    expect(await sweepUnusedUploads(m.w.ctx)).toBe(1);
    expect((await attachmentsOf(m.w, m.member)).attachments.map((a) => a.name)).toEqual(['scheduled.txt']);
  });

  it('the grace period is configurable', async () => {
    const quick = await messageWorld({ uploads: blobs, clock, config: { unusedUploadGraceSeconds: 60 } });
    await uploadAs(quick.w, quick.member, file('a.txt'));
    clock.advance(61_000);
    expect(await sweepUnusedUploads(quick.w.ctx)).toBe(1);
  });
});

describe('the sweep timer', () => {
  afterEach(() => vi.useRealTimers());

  it('sweeps at start and then every uploadSweepIntervalSeconds until stopped', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const w = await messageWorld({ uploads: blobs, clock, config: { unusedUploadGraceSeconds: 60, uploadSweepIntervalSeconds: 3600 } });
    await uploadAs(w.w, w.member, file('a.txt'));
    clock.advance(61_000);
    const sweep = startUploadSweep(w.w.ctx);
    await sweep.idle();
    expect(blobs.keys()).toEqual([]);
    await uploadAs(w.w, w.member, file('b.txt'));
    clock.advance(61_000);
    await vi.advanceTimersByTimeAsync(3599_000);
    await sweep.idle();
    expect(blobs.keys()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1000);
    await sweep.idle();
    expect(blobs.keys()).toEqual([]);
    sweep.stop();
    await uploadAs(w.w, w.member, file('c.txt'));
    clock.advance(61_000);
    await vi.advanceTimersByTimeAsync(7200_000);
    await sweep.idle();
    expect(blobs.keys()).toHaveLength(1);
  });
});
