/** Input of the message edit, delete and topic endpoints (SHAPES.md 6.3, 6.4; API.md 4.9). */
import { optional, type } from './known-structs.js';
import { defaulted, JsonBool, JsonInt, OneOf, PathInt, Str } from './wire.js';

export const PROPAGATE_MODES = ['change_one', 'change_later', 'change_all'] as const;
export type PropagateMode = (typeof PROPAGATE_MODES)[number];

export const UpdateMessageParams = type({
  message_id: PathInt,
  topic: optional(Str),
  subject: optional(Str),
  propagate_mode: defaulted(OneOf(PROPAGATE_MODES), 'change_one'),
  // Accepted; no notification messages are sent until the notification bot exists.
  send_notification_to_old_thread: optional(JsonBool),
  send_notification_to_new_thread: optional(JsonBool),
  content: optional(Str),
  prev_content_sha256: optional(Str),
  stream_id: optional(JsonInt),
});

export const DeleteMessageParams = type({ message_id: PathInt });

export const DeleteTopicParams = type({ stream_id: PathInt, topic_name: Str });

export const StreamTopicsParams = type({ stream_id: PathInt, allow_empty_topic_name: defaulted(JsonBool, false) });

export const EditTypingParams = type({ message_id: PathInt, op: OneOf(['start', 'stop'] as const) });
