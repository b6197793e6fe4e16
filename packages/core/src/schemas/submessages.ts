/** Input of POST /submessage (the reference's views/submessage.py). */
import { type } from './known-structs.js';
import { JsonInt, Text } from './wire.js';

/**
 * Bounds the reference leaves to its request size: a submessage is one widget update (a vote,
 * an option, a task), so the server's message length is plenty, and a type is a short word.
 */
export const SUBMESSAGE_CONTENT_MAX = 10000;
export const SUBMESSAGE_TYPE_MAX = 100;
/**
 * Submessages one message may collect. Every fetch of the message carries them all, so their
 * number is bounded; a poll's votes and a list's tasks stay far below it.
 */
export const SUBMESSAGES_PER_MESSAGE_MAX = 10000;

/** `content` is JSON text, stored as sent once it parses; `msg_type` is "widget" for every widget today. */
export const SendSubmessageParams = type({
  message_id: JsonInt,
  msg_type: Text({ max: SUBMESSAGE_TYPE_MAX }),
  content: Text({ max: SUBMESSAGE_CONTENT_MAX }),
});
