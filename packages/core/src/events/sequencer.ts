import type { Logger } from '../logger.js';
import type { PublishedEvent } from './bus.js';

/** A published event as a shared event log holds it: numbered in commit order. */
export interface LoggedEvent {
  id: number;
  published: PublishedEvent;
}

/** What the sequencer needs of a shared event log: reading what it has not seen yet. */
export interface EventLogReader {
  /**
   * Committed events with IDs above `afterId`, in ID order, at most `limit` of them, and the
   * highest ID pruned from the log so far (0 if none): events up to it can no longer be read.
   */
  after(afterId: number, limit: number): Promise<{ events: LoggedEvent[]; prunedThroughId: number }>;
}

/** Events read from the log per round trip while catching up. */
const CATCH_UP_BATCH = 500;

/**
 * Turns the events of a shared log into one ordered stream for this process: each event is
 * delivered once (deduplication by ID), in ID order, whether it was committed here or by
 * another process.
 *
 * The invariant it relies on, which the log must keep: IDs are given in commit order, so once
 * an event with ID n is known to be committed, every event with a smaller ID is committed or
 * will never be (a log takes a lock from the ID's allocation to the commit, see the PostgreSQL
 * transport). Hence the high-water mark `lastId` is the whole deduplication state, and reading
 * `after(lastId)` fills any gap.
 *
 * Fast path: the events a transaction of this process just committed are delivered at once,
 * inside its after-commit step (as a single process does), when nothing is missing before
 * them. Otherwise they wait for the read that fills the gap, and everything goes out in order.
 */
export class EventSequencer {
  private lastId: number;
  /** The highest ID known to be committed; a read runs until `lastId` reaches it. */
  private wantedId: number;
  /** Events committed here that wait behind a gap, by ID. */
  private readonly waiting = new Map<number, PublishedEvent>();
  private reading: Promise<void> | null = null;
  /** A catch-up asked for one more read of whatever is there, whatever `wantedId` says. */
  private catchUpWanted = false;
  private stopped = false;

  constructor(
    private readonly reader: EventLogReader,
    private readonly deliver: (published: PublishedEvent, id: number) => void,
    private readonly logger: Logger,
    /** The newest ID committed before this process started listening: nothing older is delivered. */
    startAfterId: number,
    /** Called when events were pruned before this process read them (its queues have a gap). */
    private readonly onGap: () => void = () => undefined,
  ) {
    this.lastId = startAfterId;
    this.wantedId = startAfterId;
  }

  /** The ID of the newest event delivered. */
  get deliveredId(): number {
    return this.lastId;
  }

  /** Events of a transaction of this process, just committed (called in its after-commit step). */
  committed(events: readonly LoggedEvent[]): void {
    if (this.stopped || events.length === 0) return;
    const first = events[0]!.id;
    if (this.reading === null && first === this.lastId + 1) {
      for (const { id, published } of events) {
        if (id <= this.lastId) continue;
        this.lastId = id;
        this.deliverSafely(published, id);
      }
      if (this.wantedId < this.lastId) this.wantedId = this.lastId;
      return;
    }
    for (const { id, published } of events) if (id > this.lastId) this.waiting.set(id, published);
    this.notified(events[events.length - 1]!.id);
  }

  /** Another process committed events up to `maxId` (a notification), or a check found them. */
  notified(maxId: number): void {
    if (this.stopped || maxId <= this.wantedId || maxId <= this.lastId) return;
    this.wantedId = maxId;
    this.reading ??= this.readMissing();
  }

  /** Reads whatever is newer than what was delivered (after a dropped connection, or periodically). */
  catchUp(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.catchUpWanted = true;
    this.reading ??= this.readMissing();
    return this.reading;
  }

  /** Resolves once the reads in progress are done. */
  async idle(): Promise<void> {
    while (this.reading) await this.reading;
  }

  stop(): void {
    this.stopped = true;
    this.waiting.clear();
  }

  private async readMissing(): Promise<void> {
    // Not a step before the caller has stored this promise in `reading`: a loop with nothing
    // to do would otherwise clear `reading` before it was set, and leave it set for good.
    await null;
    try {
      while (!this.stopped && (this.lastId < this.wantedId || this.catchUpWanted)) {
        this.catchUpWanted = false;
        const target = this.wantedId;
        const { events, prunedThroughId } = await this.reader.after(this.lastId, CATCH_UP_BATCH);
        if (this.stopped) return;
        if (prunedThroughId > this.lastId) {
          // Events this process never read were pruned: its queues cannot be trusted to be
          // complete (they are ended), and reading goes on from what the log still holds.
          this.lastId = prunedThroughId;
          this.onGap();
        }
        for (const { id, published } of events) {
          if (id <= this.lastId) continue;
          this.lastId = id;
          this.waiting.delete(id);
          this.deliverSafely(published, id);
        }
        if (events.length === CATCH_UP_BATCH) this.catchUpWanted = true;
        // A short read saw everything committed when it ran, so an ID it wanted and did not see
        // can only have been pruned; a notification that came in meanwhile reads again.
        else if (this.wantedId === target && this.lastId < target) this.wantedId = this.lastId;
      }
      // Events committed here that the read did not return (it cannot miss them: they were committed before it).
      for (const [id, published] of [...this.waiting].sort(([a], [b]) => a - b)) {
        if (id > this.lastId) {
          this.lastId = id;
          this.deliverSafely(published, id);
        }
      }
      this.waiting.clear();
    } catch (error) {
      // The next notification or periodic catch-up tries again from the same point.
      this.logger.error({ err: error }, 'reading the shared event log failed');
      this.wantedId = this.lastId;
    } finally {
      this.reading = null;
    }
  }

  private deliverSafely(published: PublishedEvent, id: number): void {
    try {
      this.deliver(published, id);
    } catch (error) {
      this.logger.error({ err: error }, 'delivering an event from the shared log failed');
    }
  }
}
