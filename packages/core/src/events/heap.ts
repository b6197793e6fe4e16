/** A binary min-heap of deadlines; stale entries are skipped by the caller (lazy deletion). */
export class DeadlineHeap<T> {
  private items: { at: number; value: T }[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): number | undefined {
    return this.items[0]?.at;
  }

  push(at: number, value: T): void {
    const items = this.items;
    items.push({ at, value });
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (items[parent]!.at <= items[i]!.at) break;
      [items[parent], items[i]] = [items[i]!, items[parent]!];
      i = parent;
    }
  }

  /** Removes and returns the entries due at or before `now`. */
  popDue(now: number): T[] {
    const due: T[] = [];
    while (this.items.length > 0 && this.items[0]!.at <= now) due.push(this.pop()!);
    return due;
  }

  private pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let smallest = i;
        if (left < items.length && items[left]!.at < items[smallest]!.at) smallest = left;
        if (right < items.length && items[right]!.at < items[smallest]!.at) smallest = right;
        if (smallest === i) break;
        [items[smallest], items[i]] = [items[i]!, items[smallest]!];
        i = smallest;
      }
    }
    return top?.value;
  }
}
