/** Input of POST /typing (API.md 4.1, FACTS.md 6.1). */
import { optional, type } from './known-structs.js';
import { defaulted, Int, JsonInt, List, OneOf, Str } from './wire.js';

export const TypingParams = type({
  type: defaulted(OneOf(['direct', 'stream', 'channel'] as const), 'direct'),
  op: OneOf(['start', 'stop'] as const),
  to: optional(List(Int)),
  stream_id: optional(JsonInt),
  topic: optional(Str),
});
