/** Input of the flag endpoints (API.md 4.13, 4.16; SHAPES.md 6.6, 6.7). */
import { type } from './known-structs.js';
import { NarrowParam } from '../messages/narrow.js';
import { defaulted, IdList, IntRange, json, JsonBool, JsonInt, Str } from './wire.js';

/**
 * The most message IDs one flag request lists. The reference sets none; its clients send
 * batches of at most a thousand, and 5000 matches the reference's window for narrow updates.
 */
export const MAX_FLAG_MESSAGE_IDS = 5000;

/**
 * `op` and `flag` are plain text here: the reference checks them in the action, with its own
 * texts ("Invalid flag: 'x'", "Invalid message flag operation: 'x'").
 */
export const UpdateMessageFlagsParams = type({
  messages: IdList(MAX_FLAG_MESSAGE_IDS),
  op: Str,
  flag: Str,
});

export const UpdateMessageFlagsForNarrowParams = type({
  anchor: Str,
  include_anchor: defaulted(JsonBool, true),
  num_before: json(IntRange(0, Number.MAX_SAFE_INTEGER)),
  num_after: json(IntRange(0, Number.MAX_SAFE_INTEGER)),
  narrow: NarrowParam,
  op: Str,
  flag: Str,
});

export const MarkAllAsReadParams = type({});

export const MarkStreamAsReadParams = type({
  stream_id: JsonInt,
});

export const MarkTopicAsReadParams = type({
  stream_id: JsonInt,
  topic_name: Str,
});
