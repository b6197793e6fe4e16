/**
 * Compose autocomplete: the `@person`, `#channel` or `:emoji` being typed before the caret, the
 * candidates for it, and the text after one is chosen. Pure, so it is tested without a DOM.
 */
export type TriggerKind = 'mention' | 'channel' | 'emoji';

export interface Trigger {
  kind: TriggerKind;
  query: string;
  /** Where the trigger character sits in the text. */
  start: number;
  end: number;
}

const TRIGGERS: Record<string, TriggerKind> = { '@': 'mention', '#': 'channel', ':': 'emoji' };

/** The token being typed at `caret`, when it starts with a trigger after a space or the start. */
export function findTrigger(text: string, caret: number): Trigger | undefined {
  const before = text.slice(0, caret);
  const match = /(?:^|[\s(])([@#:])(\*{0,2})([^\s@#:*]*(?: [^\s@#:*]+)?)$/.exec(before);
  if (!match) return undefined;
  const kind = TRIGGERS[match[1]!]!;
  const query = match[3]!;
  // An emoji needs two letters before suggesting, so "10:30" does not pop up a list; a space only fits names.
  if (kind === 'emoji' && (query.length < 2 || query.includes(' '))) return undefined;
  if (kind !== 'mention' && query.includes(' ')) return undefined;
  const start = before.length - match[1]!.length - match[2]!.length - query.length;
  return { kind, query, start, end: caret };
}

/** The syntax a chosen candidate is written as. */
export function markupFor(kind: TriggerKind, name: string): string {
  switch (kind) {
    case 'mention':
      return `@**${name}** `;
    case 'channel':
      return `#**${name}** `;
    case 'emoji':
      return `:${name}: `;
  }
}

/** The text with the trigger replaced by the chosen markup, and where the caret goes. */
export function applyChoice(text: string, trigger: Trigger, markup: string): { text: string; caret: number } {
  const next = text.slice(0, trigger.start) + markup + text.slice(trigger.end);
  return { text: next, caret: trigger.start + markup.length };
}

/** Candidates whose name (or a word of it) starts with the query, then those containing it. */
export function rankByName<T>(items: readonly T[], nameOf: (item: T) => string, query: string, limit = 8): T[] {
  const text = query.toLowerCase();
  const starts: T[] = [];
  const contains: T[] = [];
  for (const item of items) {
    const name = nameOf(item).toLowerCase();
    if (name.startsWith(text) || name.split(/\s+/).some((word) => word.startsWith(text))) starts.push(item);
    else if (name.includes(text)) contains.push(item);
  }
  return [...starts, ...contains].slice(0, limit);
}
