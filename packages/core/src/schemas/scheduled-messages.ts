/** Input of the scheduled-message endpoints (API.md 4.3, FACTS.md 6.3). */
import { optional, type } from 'superstruct';
import { JsonInt, OneOf, PathInt, Str } from './wire.js';

const ScheduledType = OneOf(['direct', 'private', 'stream', 'channel'] as const);

export const CreateScheduledMessageParams = type({
  type: ScheduledType,
  to: Str,
  content: Str,
  topic: optional(Str),
  scheduled_delivery_timestamp: JsonInt,
});

export const EditScheduledMessageParams = type({
  scheduled_message_id: PathInt,
  type: optional(ScheduledType),
  to: optional(Str),
  content: optional(Str),
  topic: optional(Str),
  scheduled_delivery_timestamp: optional(JsonInt),
});

export const DeleteScheduledMessageParams = type({ scheduled_message_id: PathInt });
