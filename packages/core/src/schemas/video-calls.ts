/** Input of POST /calls/videoprovider/create (FACTS.md 6.10). */
import { optional, type } from './known-structs.js';
import { JsonBool } from './wire.js';

export const CreateVideoCallParams = type({ is_video_call: optional(JsonBool) });
