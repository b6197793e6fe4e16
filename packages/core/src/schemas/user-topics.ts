/** Input of POST /user_topics and the legacy PATCH /users/me/subscriptions/muted_topics (openapi). */
import { optional, type } from './known-structs.js';
import { IntOneOf, JsonInt, json, OneOf, Str } from './wire.js';

/** POST /user_topics: the topic's length is checked against max_topic_length by the action. */
export const UpdateUserTopicParams = type({
  stream_id: JsonInt,
  topic: Str,
  visibility_policy: json(IntOneOf([0, 1, 2, 3])),
});

/** Exactly one of `stream` (a name) and `stream_id` is required; the action says which is missing. */
export const UpdateMutedTopicParams = type({
  stream_id: optional(JsonInt),
  stream: optional(Str),
  topic: Str,
  op: OneOf(['add', 'remove'] as const),
});
