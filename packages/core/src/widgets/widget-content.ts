/**
 * POST /messages' `widget_content` (the reference's check_widget_content): a bot or program
 * may attach a widget of its own instead of one parsed from the content. Only "zform" widgets
 * of type "choices" (buttons whose reply is sent as a message) are accepted, with the
 * reference's texts behind its "Widgets: " prefix.
 */
import { err, ok, type Result } from 'neverthrow';
import { type ApiError, badRequest } from '../errors.js';
import type { WidgetContent } from './content.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** check_dict with string-valued keys: the first missing or non-string key, in order. */
function stringKeys(name: string, value: unknown, keys: readonly string[]): string | undefined {
  if (!isObject(value)) return `${name} is not a dict`;
  for (const key of keys) {
    if (!(key in value)) return `${key} key is missing from ${name}`;
    if (typeof value[key] !== 'string') return `${name}["${key}"] is not a string`;
  }
  return undefined;
}

/** The problem with a parsed widget_content, if any. */
function widgetProblem(widget: unknown): string | undefined {
  if (!isObject(widget)) return 'widget_content is not a dict';
  if (!('widget_type' in widget)) return 'widget_type is not in widget_content';
  if (!('extra_data' in widget)) return 'extra_data is not in widget_content';
  const extra = widget.extra_data;
  if (!isObject(extra)) return 'extra_data is not a dict';
  if (widget.widget_type !== 'zform') return `unknown widget type: ${String(widget.widget_type)}`;
  if (!('type' in extra)) return 'zform is missing type field';
  if (extra.type !== 'choices') return `unknown zform type: ${String(extra.type)}`;
  const heading = stringKeys('extra_data', extra, ['heading']);
  if (heading) return heading;
  if (!('choices' in extra)) return 'choices key is missing from extra_data';
  if (!Array.isArray(extra.choices)) return 'extra_data["choices"] is not a list';
  for (const [i, choice] of extra.choices.entries()) {
    const problem = stringKeys(`extra_data["choices"][${i}]`, choice, ['short_name', 'long_name', 'reply']);
    if (problem) return problem;
  }
  return undefined;
}

/** Parses and checks `widget_content` text; the widget becomes the message's first submessage. */
export function checkWidgetContent(text: string): Result<WidgetContent, ApiError> {
  let widget: unknown;
  try {
    widget = JSON.parse(text);
  } catch {
    return err(badRequest('Widgets: API programmer sent invalid JSON content'));
  }
  const problem = widgetProblem(widget);
  if (problem) return err(badRequest(`Widgets: ${problem}`));
  const { widget_type, extra_data } = widget as { widget_type: 'zform'; extra_data: Record<string, unknown> };
  return ok({ widget_type, extra_data });
}
