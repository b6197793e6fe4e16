/**
 * The sequencer that turns a shared event log into one stream per process: each event once,
 * in ID order, whether committed here or elsewhere; gaps filled from the log; pruned gaps reported.
 */
import { type EventLogReader, EventSequencer, type LoggedEvent, type PublishedEvent, silentLogger } from '@teamchat/core/internal';
import { describe, expect, it } from 'vitest';
import { untypedEvent } from '../helpers/events.js';

const published = (n: number): PublishedEvent => ({ realmId: 1, userIds: [1], event: untypedEvent({ type: 'test', n }) });
const logged = (id: number): LoggedEvent => ({ id, published: published(id) });

/** A log holding `ids`, counting its reads; `fail` makes the next read throw. */
function fakeLog(ids: number[] = []) {
  const log = { events: ids.map(logged), reads: 0, prunedThroughId: 0, fail: false };
  const reader: EventLogReader = {
    async after(afterId, limit) {
      log.reads++;
      if (log.fail) {
        log.fail = false;
        throw new Error('connection lost');
      }
      return { events: log.events.filter((e) => e.id > afterId).slice(0, limit), prunedThroughId: log.prunedThroughId };
    },
  };
  return { log, reader };
}

function sequencer(reader: EventLogReader, startAfter = 0, onGap?: () => void) {
  const delivered: number[] = [];
  const seq = new EventSequencer(reader, (p) => delivered.push((p.event as unknown as { n: number }).n), silentLogger, startAfter, onGap);
  return { seq, delivered };
}

describe('EventSequencer', () => {
  it('delivers events committed here at once, inside the call, when nothing is missing before them', () => {
    const { log, reader } = fakeLog();
    const { seq, delivered } = sequencer(reader, 4);
    seq.committed([logged(5), logged(6)]);
    expect(delivered).toEqual([5, 6]);
    expect(seq.deliveredId).toBe(6);
    expect(log.reads).toBe(0);
  });

  it('holds an event committed here behind a gap until the log filled it, then delivers in ID order', async () => {
    const { log, reader } = fakeLog([1, 2, 3]);
    const { seq, delivered } = sequencer(reader, 1);
    seq.committed([logged(3)]);
    expect(delivered).toEqual([]);
    await seq.idle();
    expect(delivered).toEqual([2, 3]);
    expect(log.reads).toBe(1);
  });

  it('reads what another process committed on notification, and ignores notifications of what it already has', async () => {
    const { log, reader } = fakeLog([1, 2, 3]);
    const { seq, delivered } = sequencer(reader, 0);
    seq.notified(2);
    seq.notified(3);
    await seq.idle();
    expect(delivered).toEqual([1, 2, 3]);
    seq.notified(3);
    seq.notified(1);
    await seq.idle();
    expect(delivered).toEqual([1, 2, 3]);
    expect(log.reads).toBe(1);
  });

  it('delivers each event once when the same event arrives committed here and notified', async () => {
    const { log, reader } = fakeLog([1, 2]);
    const { seq, delivered } = sequencer(reader, 0);
    seq.notified(1);
    // A local commit while the read is in flight waits for it rather than overtaking it.
    seq.committed([logged(2)]);
    log.events.push(logged(3));
    seq.notified(3);
    await seq.idle();
    expect(delivered).toEqual([1, 2, 3]);
  });

  it('skips holes of IDs that never committed (rolled-back transactions)', async () => {
    const { reader } = fakeLog([1, 4, 7]);
    const { seq, delivered } = sequencer(reader, 0);
    seq.notified(7);
    await seq.idle();
    expect(delivered).toEqual([1, 4, 7]);
    seq.committed([logged(9)]);
    await seq.idle();
    expect(delivered).toEqual([1, 4, 7, 9]);
  });

  it('reads in batches until it has everything, and catchUp takes whatever is newer', async () => {
    const ids = Array.from({ length: 1200 }, (_, i) => i + 1);
    const { log, reader } = fakeLog(ids);
    const { seq, delivered } = sequencer(reader, 0);
    await seq.catchUp();
    expect(delivered).toEqual(ids);
    expect(log.reads).toBe(3);
  });

  it('tries again after a failed read, from where it stopped', async () => {
    const { log, reader } = fakeLog([1, 2]);
    const { seq, delivered } = sequencer(reader, 0);
    log.fail = true;
    seq.notified(2);
    await seq.idle();
    expect(delivered).toEqual([]);
    // Nothing is lost: the next notification (or periodic catch-up) reads from the same point.
    seq.notified(2);
    await seq.idle();
    expect(delivered).toEqual([1, 2]);
  });

  it('reports a gap when events it never read were pruned, and starts after the given ID', async () => {
    const { log, reader } = fakeLog([10, 11]);
    log.prunedThroughId = 9;
    let gaps = 0;
    const { seq, delivered } = sequencer(reader, 5, () => gaps++);
    await seq.catchUp();
    expect(gaps).toBe(1);
    expect(delivered).toEqual([10, 11]);
    const fresh = sequencer(reader, 9, () => gaps++);
    await fresh.seq.catchUp();
    expect(gaps).toBe(1);
    expect(fresh.delivered).toEqual([10, 11]);
  });

  it('delivers nothing after stop, and a throwing listener does not stop the stream', async () => {
    const { reader } = fakeLog([1, 2, 3]);
    const seen: number[] = [];
    const seq = new EventSequencer(
      reader,
      (p) => {
        const n = (p.event as unknown as { n: number }).n;
        if (n === 2) throw new Error('listener failed');
        seen.push(n);
      },
      silentLogger,
      0,
    );
    await seq.catchUp();
    expect(seen).toEqual([1, 3]);
    seq.stop();
    seq.committed([logged(4)]);
    expect(seen).toEqual([1, 3]);
  });
});
