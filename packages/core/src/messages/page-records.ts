import { dropLazyText, withLazyText } from '../format/json.js';
import type { Message } from '../storage/types.js';
import { type ApiMessage, formatMessage, type MessageView, type RecordInputs, recordInputs, sameRecordInputs } from './format.js';
import { flagNames } from './flags.js';
import { type MessageRows, recordHolder } from './page-rows.js';

/**
 * One message's record, as formatted for one variant of a page's page-wide inputs, kept as
 * JSON text (without the viewer's flags), with the view's inputs for this message beside it
 * in the same small object: a page reads it long after it was kept, from memory no longer in
 * the CPU's caches, so that what it compares costs one cache line, and the text is read once,
 * in order, when the answer is written.
 */
export interface KeptRecord extends RecordInputs {
  /** The page's variant (see formatKeptRecords) it was formatted under. */
  readonly variant: string;
  /** Its JSON text up to `submessages` (no closing brace), where the flags go. */
  readonly head: string;
  /** The rest of its JSON text: the fields after the flags and the closing brace. */
  readonly tail: string;
  /**
   * The message's record of another variant. Two are kept at most: a realm's viewers mostly
   * share one (the same options); a second spares a page read in turns by two kinds of
   * client. A record's text is ~440 bytes, its object ~100: with page-rows.ts's bound of
   * 65,536 messages, at most ~35 MB per variant.
   */
  readonly other: KeptRecord | undefined;
}

/**
 * Variants by their text, so that a kept record holds the same string as the page comparing
 * it and the comparison is one of pointers, not of texts in memory out of the CPU's caches.
 * A realm has a handful; the bound is for safety.
 */
const variants = new Map<string, string>();

/** A page's records: as JSON texts, one per message in order, and as objects, made when asked for. */
export interface FormattedPage {
  /** The records' JSON texts, comma-separated, in pieces; undefined when only `records` serves (a search adds highlights). */
  readonly parts: readonly string[] | undefined;
  /** The records, made anew at each call. */
  records(): ApiMessage[];
}

/**
 * The records of `rows` for a viewer, as `formatMessage` makes them with `flagsOf` each
 * message's flags. Their JSON texts come from the records kept with kept rows (page-rows.ts),
 * formatted and serialized again only when the message's rows, its `recordInputs` (channel
 * name, conversation number, the users it names) or the page's `variant` differ from the kept
 * record's. `variant` must hold every page-wide input of formatMessage: `recordVariant(view)`
 * (realm fields and options) and the linkifiers behind `view.topicLinks`. Rows, inputs and
 * variant are all read in the caller's snapshot, so a change by any process is seen on its
 * next page. Only the flags, the viewer's own, are put in per page. The record objects are
 * formatted only if asked for (answers serialized by `toJson` never are).
 */
export function formatKeptRecords(rows: readonly MessageRows[], view: MessageView, variant: string, flagsOf: (message: Message) => number): FormattedPage {
  const shared = canonicalVariant(variant);
  // The records' texts as parts, joined once into the answer's text (see answerWithRecords).
  const parts: string[] = [];
  for (const row of rows) {
    const kept = keptRecord(row, view, shared);
    if (parts.length > 0) parts.push(',');
    parts.push(kept.head, flagsText(flagsOf(row.message)), kept.tail);
  }
  return {
    parts,
    records: () => rows.map(({ message, reactions, submessages }) => formatMessage(message, view, reactions, submessages, flagsOf(message))),
  };
}

/**
 * `fields` followed by `messages`, the page's records, as GET /messages answers: serialized
 * by `toJson` from the records' texts, the records formatted only when `messages` is first
 * read (an in-process caller), after which it is an ordinary field.
 */
export function answerWithRecords<T extends object>(fields: T, page: FormattedPage): T & { messages: ApiMessage[] } {
  const answer = { ...fields } as T & { messages: ApiMessage[] };
  const parts = page.parts;
  Object.defineProperty(answer, 'messages', {
    enumerable: true,
    configurable: true,
    get() {
      dropLazyText(answer);
      const messages = page.records();
      Object.defineProperty(answer, 'messages', { value: messages, enumerable: true, configurable: true, writable: true });
      return messages;
    },
    set(messages: ApiMessage[]) {
      dropLazyText(answer);
      Object.defineProperty(answer, 'messages', { value: messages, enumerable: true, configurable: true, writable: true });
    },
  });
  if (!parts) return answer;
  return withLazyText(answer, () => {
    const before = JSON.stringify(fields);
    // One join: a flat string, which the HTTP envelope slices without copying.
    return [before === '{}' ? '{' : `${before.slice(0, -1)},`, '"messages":[', ...parts, ']}'].join('');
  });
}

function keptRecord(row: MessageRows, view: MessageView, variant: string): KeptRecord {
  // Rows read for one page only (a page of listed IDs) have no holder: their records are not kept.
  const holder = recordHolder(row);
  const first = holder?.record;
  for (let kept = first; kept; kept = kept.other) if (kept.variant === variant && sameRecordInputs(kept, row.message, view)) return kept;
  const inputs = recordInputs(row.message, view);
  const { head, tail } = splitText(formatMessage(row.message, view, row.reactions, row.submessages));
  // Two variants at most: this one, and the newest kept of another (without its own other).
  let other: KeptRecord | undefined;
  for (let kept = first; kept; kept = kept.other) {
    if (kept.variant === variant) continue;
    other = kept.other ? { ...kept, other: undefined } : kept;
    break;
  }
  const made: KeptRecord = { variant, recipient: inputs.recipient, sender: inputs.sender, participants: inputs.participants, head, tail, other };
  if (holder) holder.record = made;
  return made;
}

function canonicalVariant(variant: string): string {
  const known = variants.get(variant);
  if (known !== undefined) return known;
  if (variants.size >= 256) variants.clear();
  variants.set(variant, variant);
  return variant;
}

/**
 * The record's text cut where `flags` goes: before the fields formatMessage adds after it
 * (last_edit_timestamp, last_moved_timestamp, edit_history), which end the record's text in
 * that order, so that `tail` is their object's text after its opening brace.
 */
function splitText(record: ApiMessage): { head: string; tail: string } {
  const text = JSON.stringify(record);
  const after = JSON.stringify({
    last_edit_timestamp: record.last_edit_timestamp,
    last_moved_timestamp: record.last_moved_timestamp,
    edit_history: record.edit_history,
  });
  if (after === '{}') return { head: text.slice(0, -1), tail: '}' };
  return { head: text.slice(0, text.length - after.length), tail: `,${after.slice(1)}` };
}

/** `,"flags":[...]` by the flags' bits: a realm's messages show a handful of combinations. */
const flagTexts = new Map<number, string>();

function flagsText(bits: number): string {
  let text = flagTexts.get(bits);
  if (text === undefined) {
    text = `,"flags":${JSON.stringify(flagNames(bits))}`;
    // The bits are a stored number: bound the memo all the same.
    if (flagTexts.size >= 1024) flagTexts.clear();
    flagTexts.set(bits, text);
  }
  return text;
}
