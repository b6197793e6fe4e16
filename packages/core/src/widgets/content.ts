/**
 * The widget a message's content asks for (the reference's zerver/lib/widget.py): content whose
 * first word is `/poll` or `/todo` becomes a poll or a to-do list. The rest of the first line
 * is the question or the list's title; each further non-blank line, without a leading `-` or
 * `*` list marker, is an option, or a task with an optional description after the first ": ".
 * The result is the content of the message's first submessage, which the clients' widgets
 * start from.
 */
import { pythonJson } from './python-json.js';

export type WidgetType = 'poll' | 'todo';

export interface PollExtraData {
  question: string;
  options: string[];
}

export interface TodoExtraData {
  task_list_title: string;
  tasks: Array<{ task: string; desc: string }>;
}

/** A widget: parsed from `/poll` or `/todo` content, or a program's zform (widget-content.ts). */
export type WidgetContent =
  | { widget_type: 'poll'; extra_data: PollExtraData }
  | { widget_type: 'todo'; extra_data: TodoExtraData }
  | { widget_type: 'zform'; extra_data: Record<string, unknown> };

const WIDGET_TYPES: readonly string[] = ['poll', 'todo'];

/** Python's str.splitlines() boundaries; a final line break ends the last line, adds none. */
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;
const splitLines = (text: string) => {
  const lines = text.split(LINE_BREAK);
  if (lines.at(-1) === '') lines.pop();
  return lines;
};
/** A leading list marker ("- ", "* ") with its spaces. */
const withoutMarker = (line: string) => line.trim().replace(/^\s*[-*]?\s*/, '');

/** The widget `content` asks for, if any. */
export function widgetFromContent(content: string): WidgetContent | undefined {
  // Only a first word starting with `/` names a widget; every other message stops here, unsplit.
  if (!content.startsWith('/')) return undefined;
  const first = content.split(/\s+/)[0]!;
  const type = first.slice(1);
  if (!WIDGET_TYPES.includes(type)) return undefined;
  const lines = splitLines(content.slice(first.length));
  // A first line that is empty stays in the list (it is no option); a blank one is taken.
  const heading = lines.length > 0 && lines[0] !== '' ? lines.shift()!.trim() : '';
  const items = lines.map(withoutMarker).filter((line) => line.length > 0);
  if (type === 'poll') return { widget_type: 'poll', extra_data: { question: heading, options: items } };
  const tasks = items.map((item) => {
    const at = item.indexOf(': ');
    return at < 0 ? { task: item.trim(), desc: '' } : { task: item.slice(0, at).trim(), desc: item.slice(at + 2).trim() };
  });
  return { widget_type: 'todo', extra_data: { task_list_title: heading, tasks } };
}

/** The first submessage's content for a widget, serialised as the reference's json.dumps does. */
export const widgetSubmessageContent = (widget: WidgetContent) => pythonJson(widget);
