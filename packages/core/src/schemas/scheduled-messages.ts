/** Input of the scheduled-message endpoints (API.md 4.3, FACTS.md 6.3). */
import { union } from 'superstruct';
import { optional, type } from './known-structs.js';
import { array, Int, JsonInt, json, OneOf, PathInt, Str } from './wire.js';

const ScheduledType = OneOf(['direct', 'private', 'stream', 'channel'] as const);

/** The reference's `Json[int | list[int]]`: a channel ID or user IDs, never emails. */
const ScheduledTo = json(union([Int, array(Int)]));

export const CreateScheduledMessageParams = type({
  type: ScheduledType,
  to: ScheduledTo,
  content: Str,
  topic: optional(Str),
  scheduled_delivery_timestamp: JsonInt,
});

export const EditScheduledMessageParams = type({
  scheduled_message_id: PathInt,
  type: optional(ScheduledType),
  to: optional(ScheduledTo),
  content: optional(Str),
  topic: optional(Str),
  scheduled_delivery_timestamp: optional(JsonInt),
});

export const DeleteScheduledMessageParams = type({ scheduled_message_id: PathInt });
