/** Input of the message endpoints (SHAPES.md 6.1–6.5). */
import { optional, type } from './known-structs.js';
import { NarrowParam } from '../messages/narrow.js';
import { defaulted, IdList, IntRange, json, JsonBool, OneOf, PathInt, Str, Text } from './wire.js';
import { SUBMESSAGE_CONTENT_MAX } from './submessages.js';

/** The most messages one fetch returns (the reference's MAX_MESSAGES_PER_FETCH); ID lists share it. */
export const MAX_MESSAGES_PER_FETCH = 5000;

export const SendMessageParams = type({
  type: OneOf(['direct', 'private', 'stream', 'channel'] as const),
  to: Str,
  content: Str,
  topic: optional(Str),
  subject: optional(Str),
  queue_id: optional(Str),
  local_id: optional(Str),
  read_by_sender: optional(JsonBool),
  /** A program's own widget (zform), JSON text; see widgets/widget-content.ts. */
  widget_content: optional(Text({ max: SUBMESSAGE_CONTENT_MAX })),
});

export const GetMessagesParams = type({
  anchor: optional(Str),
  anchor_date: optional(Str),
  /** Optional rather than defaulted: sending it with message_ids is an error. Default true. */
  include_anchor: optional(JsonBool),
  num_before: optional(json(IntRange(0, Number.MAX_SAFE_INTEGER))),
  num_after: optional(json(IntRange(0, Number.MAX_SAFE_INTEGER))),
  narrow: defaulted(NarrowParam, []),
  message_ids: optional(IdList(MAX_MESSAGES_PER_FETCH)),
  client_gravatar: defaulted(JsonBool, true),
  apply_markdown: defaulted(JsonBool, true),
  allow_empty_topic_name: defaulted(JsonBool, false),
  use_first_unread_anchor: optional(JsonBool),
});

export const GetMessageParams = type({
  message_id: PathInt,
  apply_markdown: defaulted(JsonBool, true),
  allow_empty_topic_name: defaulted(JsonBool, false),
});

export const GetMessageHistoryParams = type({
  message_id: PathInt,
  allow_empty_topic_name: defaulted(JsonBool, false),
});

export const MatchesNarrowParams = type({
  msg_ids: IdList(MAX_MESSAGES_PER_FETCH),
  narrow: NarrowParam,
});

/** POST /messages/render: the Markdown to render (its length is checked against the server's limit). */
export const RenderMessageParams = type({ content: Str });
