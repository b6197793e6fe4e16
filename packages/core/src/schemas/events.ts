/** Input of POST /register, GET /events and DELETE /events (API.md 4.2, SHAPES.md 2.1, 3.1). */
import { define, nullable, optional, tuple, type, object } from './known-structs.js';
import { CLIENT_CAPABILITIES } from '../events/types.js';
import { MAX_NARROW_CHARS, MAX_NARROW_TERMS, NarrowOperand } from '../messages/narrow.js';
import { array, Bool, defaulted, fromText, Int, INVALID_JSON, json, JsonBool, JsonInt, List, OversizedJson, Str, unionBy } from './wire.js';

/** These parameters are a word or a number: longer text is refused before it is parsed. */
const MAX_SCALAR_CHARS = 1000;

const parseJsonOr = (raw: string, keep: string) => {
  if (raw === keep) return raw;
  if (raw.length > MAX_SCALAR_CHARS) return new OversizedJson(MAX_SCALAR_CHARS);
  try {
    return JSON.parse(raw);
  } catch {
    return INVALID_JSON;
  }
};

/** `true`, `false` or `"partial"` (FL 412); the last is sent as bare text. */
export const IncludeSubscribers = fromText(
  define<boolean | 'partial'>('include_subscribers', (v) => typeof v === 'boolean' || v === 'partial' || 'Invalid {var}'),
  (raw) => parseJsonOr(raw, 'partial'),
);

/** Seconds, or `"mobile"` (FL 481). */
const IdleQueueTimeout = fromText(
  define<number | 'mobile'>('idle_queue_timeout', (v) => {
    if (v === 'mobile') return true;
    if (!Number.isSafeInteger(v)) return '{var} is not an integer';
    return (v as number) > 0 || '{var} is too small';
  }),
  (raw) => parseJsonOr(raw, 'mobile'),
);

/** A narrow term: `[operator, operand]` or `{operator, operand, negated?}`. */
const NarrowTerm = unionBy(
  [
    tuple([Str, unionBy([Str, Int], (value) => (typeof value === 'string' ? 0 : typeof value === 'number' ? 1 : -1))]),
    object({ operator: Str, operand: NarrowOperand, negated: optional(Bool) }),
  ],
  (value) => (Array.isArray(value) ? 0 : 1),
);

const capabilityFields = Object.fromEntries(CLIENT_CAPABILITIES.map((name) => [name, optional(Bool)]));

export const RegisterParams = type({
  apply_markdown: defaulted(JsonBool, false),
  client_gravatar: optional(JsonBool),
  slim_presence: defaulted(JsonBool, false),
  presence_history_limit_days: optional(JsonInt),
  include_subscribers: defaulted(IncludeSubscribers, false),
  event_types: optional(json(nullable(array(Str)))),
  fetch_event_types: optional(json(nullable(array(Str)))),
  /** Absent: false, or a bot's default_all_public_streams. */
  all_public_streams: optional(JsonBool),
  narrow: defaulted(List(NarrowTerm, { max: MAX_NARROW_TERMS, maxChars: MAX_NARROW_CHARS }), []),
  client_capabilities: defaulted(json(type(capabilityFields)), {}),
  idle_queue_timeout: optional(IdleQueueTimeout),
  queue_lifespan_secs: optional(JsonInt),
  user_client: optional(Str),
});

export const GetEventsParams = type({
  ...RegisterParams.schema,
  queue_id: optional(Str),
  last_event_id: optional(JsonInt),
  dont_block: defaulted(JsonBool, false),
});

export const DeleteQueueParams = type({ queue_id: Str });

