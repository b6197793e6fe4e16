/** One deadline in a `DeadlineHeap`; keep it to remove the deadline before it is due. */
export interface DeadlineEntry<T> {
  readonly at: number;
  readonly value: T;
  /** Position in the heap's array; -1 once popped or removed. */
  index: number;
}

/**
 * A binary min-heap of deadlines. Entries are removed when what they wait for is answered
 * (`remove`), so the heap holds one entry per waiting poll and nothing for idle queues.
 */
export class DeadlineHeap<T> {
  private items: DeadlineEntry<T>[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): number | undefined {
    return this.items[0]?.at;
  }

  push(at: number, value: T): DeadlineEntry<T> {
    const entry: DeadlineEntry<T> = { at, value, index: this.items.length };
    this.items.push(entry);
    this.up(entry.index);
    return entry;
  }

  /** Takes `entry` out of the heap; nothing happens if it was already popped or removed. */
  remove(entry: DeadlineEntry<T>): void {
    const i = entry.index;
    if (i < 0 || this.items[i] !== entry) return;
    entry.index = -1;
    const last = this.items.pop()!;
    if (last === entry) return;
    this.place(last, i);
    this.down(i);
    this.up(last.index);
  }

  /** Removes and returns the entries due at or before `now`. */
  popDue(now: number): T[] {
    const due: T[] = [];
    while (this.items.length > 0 && this.items[0]!.at <= now) {
      const top = this.items[0]!;
      this.remove(top);
      due.push(top.value);
    }
    return due;
  }

  private place(entry: DeadlineEntry<T>, i: number): void {
    this.items[i] = entry;
    entry.index = i;
  }

  private up(i: number): void {
    const items = this.items;
    const entry = items[i]!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (items[parent]!.at <= entry.at) break;
      this.place(items[parent]!, i);
      i = parent;
    }
    this.place(entry, i);
  }

  private down(i: number): void {
    const items = this.items;
    const entry = items[i]!;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child = right < items.length && items[right]!.at < items[left]!.at ? right : left;
      if (items[child]!.at >= entry.at) break;
      this.place(items[child]!, i);
      i = child;
    }
    this.place(entry, i);
  }
}
