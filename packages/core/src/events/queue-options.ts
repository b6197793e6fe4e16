import type { QueueOptions } from './types.js';

interface Interned {
  readonly key: string;
  readonly options: QueueOptions;
  /** Queues holding these options; at 0 the entry is dropped. */
  queues: number;
}

/**
 * Identical queue options shared between queues. Most clients register with one of a few
 * option sets, so thousands of idle queues hold a handful of options objects (with their Sets
 * and narrow arrays) instead of one each. Entries are counted, so options no queue holds any
 * more (a narrow to a one-off operand) are let go. Shared options must not be changed.
 */
export class QueueOptionsTable {
  private readonly byKey = new Map<string, Interned>();
  private readonly byOptions = new Map<QueueOptions, Interned>();

  /** Distinct options held. */
  get size(): number {
    return this.byKey.size;
  }

  /** The shared object equal to `options` (counted once more), or `options` itself if it is the first such. */
  acquire(options: QueueOptions): QueueOptions {
    const key = optionsKey(options);
    if (key === null) return options;
    let entry = this.byKey.get(key);
    if (!entry) {
      entry = { key, options, queues: 0 };
      this.byKey.set(key, entry);
      this.byOptions.set(options, entry);
    }
    entry.queues++;
    return entry.options;
  }

  /** One queue holding `options` (as `acquire` returned them) is gone. */
  release(options: QueueOptions): void {
    const entry = this.byOptions.get(options);
    if (!entry || --entry.queues > 0) return;
    this.byKey.delete(entry.key);
    this.byOptions.delete(options);
  }
}

/**
 * A text equal for equal options, whatever order their Sets were filled in; null for options
 * holding something it cannot compare (a function, a class instance), which are then not shared.
 * Every field counts, so a field added to QueueOptions later is never silently ignored.
 */
function optionsKey(options: QueueOptions): string | null {
  const fields = options as unknown as Record<string, unknown>;
  let key = '';
  for (const name of Object.keys(fields).sort()) {
    const text = valueKey(fields[name]);
    if (text === null) return null;
    key += `${name}=${text};`;
  }
  return key;
}

function valueKey(value: unknown): string | null {
  if (value === undefined) return 'u';
  if (value === null || typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string') return JSON.stringify(value);
  if (value instanceof Set) {
    const items: string[] = [];
    for (const item of value as Set<unknown>) {
      const text = valueKey(item);
      if (text === null) return null;
      items.push(text);
    }
    return `set(${items.sort().join(',')})`;
  }
  if (Array.isArray(value)) {
    let text = '[';
    for (const item of value) {
      const itemKey = valueKey(item);
      if (itemKey === null) return null;
      text += `${itemKey},`;
    }
    return `${text}]`;
  }
  return null;
}
