/** Input of the bot endpoints (the reference's add_bot_backend, patch_bot_backend and friends). */
import { record } from 'superstruct';
import { define, optional, type } from './known-structs.js';
import { ROLES } from '../storage/types.js';
import { defaulted, Int, IntOneOf, json, JsonBool, JsonInt, PathInt, Str } from './wire.js';

/** Django's URLValidator limit: longer texts are "not a URL" in the reference too. */
export const MAX_URL_LENGTH = 2048;

/** An http(s) URL with a host (the reference's check_url, which runs Django's URLValidator). */
const Url = define<string>('url', (v) => {
  if (typeof v !== 'string') return '{var} is not a string';
  if (v.length > MAX_URL_LENGTH) return '{var} is not a URL';
  try {
    const url = new URL(v);
    return ((url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '') || '{var} is not a URL';
  } catch {
    return '{var} is not a URL';
  }
});

/** A dictionary of strings sent as JSON (check_dict(value_validator=check_string)). */
const StringDict = json(record(Str, Str));

/** POST /bots. JSON-typed values (bot_type, payload_url, config_data, …) arrive as JSON text over HTTP. */
export const CreateBotParams = type({
  full_name: Str,
  short_name: Str,
  bot_type: defaulted(JsonInt, 1),
  payload_url: optional(json(Url)),
  service_name: optional(Str),
  config_data: defaulted(StringDict, {}),
  interface_type: defaulted(JsonInt, 1),
  default_sending_stream: optional(Str),
  default_events_register_stream: optional(Str),
  default_all_public_streams: optional(JsonBool),
});

/** GET /bots takes no parameters. */
export const GetBotsParams = type({});

/** DELETE /bots/{bot_id} and POST /bots/{bot_id}/api_key/regenerate. */
export const BotIdParams = type({ bot_id: PathInt });

/** PATCH /bots/{bot_id}: every field optional; service_interface applies with service_payload_url. */
export const UpdateBotParams = type({
  bot_id: PathInt,
  full_name: optional(Str),
  short_name: optional(Str),
  role: optional(json(IntOneOf(ROLES))),
  bot_owner_id: optional(json(Int)),
  config_data: optional(StringDict),
  service_payload_url: optional(json(Url)),
  service_interface: defaulted(JsonInt, 1),
  default_sending_stream: optional(Str),
  default_events_register_stream: optional(Str),
  default_all_public_streams: optional(JsonBool),
});
