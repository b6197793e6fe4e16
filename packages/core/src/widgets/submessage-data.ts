/**
 * The checks on a submessage's data once its message is a poll or a to-do list (the
 * reference's validate_poll_data and validate_todo_data, with their texts). Each data type
 * has an exact set of keys; editing the question or the list's title is for the widget's
 * author (the message's sender) only. Booleans are not integers here (Python would take
 * `true` as 1), so a stored vote is always a number the clients can add up.
 */
import { err, ok, type Result } from 'neverthrow';
import { type ApiError, badRequest } from '../errors.js';

/** Widgets' indexes stop here (the clients' MAX_IDX). */
export const MAX_WIDGET_IDX = 1000;

type Check = (name: string, value: unknown) => string | undefined;

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const str: Check = (name, v) => (typeof v === 'string' ? undefined : `${name} is not a string`);
const bool: Check = (name, v) => (typeof v === 'boolean' ? undefined : `${name} is not a boolean`);
const intIn = (values: readonly number[]): Check => (name, v) =>
  !isInt(v) ? `${name} is not an integer` : values.includes(v) ? undefined : `Invalid ${name}`;
const intRange = (low: number, high: number): Check => (name, v) =>
  !isInt(v) ? `${name} is not an integer` : v < low ? `${name} is too small` : v > high ? `${name} is too large` : undefined;

/** check_dict_only: every listed key present and valid, in order, then no other key. */
function exactKeys(name: string, data: Record<string, unknown>, keys: ReadonlyArray<readonly [string, Check]>): string | undefined {
  for (const [key, check] of keys) {
    if (!(key in data)) return `${key} key is missing from ${name}`;
    const problem = check(`${name}["${key}"]`, data[key]);
    if (problem) return problem;
  }
  const extra = Object.keys(data).filter((key) => !keys.some(([k]) => k === key));
  return extra.length > 0 ? `Unexpected arguments: ${extra.join(', ')}` : undefined;
}

/** Per data type: its keys, and whether only the widget's author may send it. */
interface DataKind {
  keys: ReadonlyArray<readonly [string, Check]>;
  authorOnly?: string;
}

const POLL: Record<string, DataKind> = {
  vote: { keys: [['type', str], ['key', str], ['vote', intIn([1, -1])]] },
  question: { keys: [['type', str], ['question', str]], authorOnly: "You can't edit a question unless you are the author." },
  new_option: { keys: [['type', str], ['option', str], ['idx', intRange(0, MAX_WIDGET_IDX)]] },
};

const TODO: Record<string, DataKind> = {
  new_task: { keys: [['type', str], ['key', intRange(0, MAX_WIDGET_IDX)], ['task', str], ['desc', str], ['completed', bool]] },
  strike: { keys: [['type', str], ['key', str]] },
  new_task_list_title: { keys: [['type', str], ['title', str]], authorOnly: "You can't edit the task list title unless you are the author." },
};

/**
 * Checks `data` (the parsed content) sent to a message whose widget is `widget`. Widgets other
 * than polls and to-do lists take any JSON, as in the reference.
 */
export function checkWidgetData(widget: string | undefined, data: unknown, isAuthor: boolean): Result<void, ApiError> {
  if (widget !== 'poll' && widget !== 'todo') return ok(undefined);
  const name = `${widget} data`;
  const kinds = widget === 'poll' ? POLL : TODO;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return err(badRequest(`${name} is not a dict`));
  const record = data as Record<string, unknown>;
  if (!('type' in record)) return err(badRequest(`type key is missing from ${name}`));
  const typeProblem = str(`${name}["type"]`, record.type);
  if (typeProblem) return err(badRequest(typeProblem));
  const kind = Object.hasOwn(kinds, record.type as string) ? kinds[record.type as string]! : undefined;
  if (!kind) return err(badRequest(`Unknown type for ${name}: ${record.type as string}`));
  if (kind.authorOnly && !isAuthor) return err(badRequest(kind.authorOnly));
  const problem = exactKeys(name, record, kind.keys);
  return problem ? err(badRequest(problem)) : ok(undefined);
}

/** The widget type a message's first `widget` submessage names, if its content says one. */
export function widgetTypeOf(content: string | undefined): string | undefined {
  if (content === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(content);
    const type = parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>).widget_type : undefined;
    return typeof type === 'string' ? type : undefined;
  } catch {
    return undefined;
  }
}
