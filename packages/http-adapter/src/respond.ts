/** The one map from core results to HTTP responses: the envelope of API.md 2.1. */
import { type ApiError, toJson } from '@teamchat/core/internal';
import { httpStatus } from './status.js';
import type { ServerResponse } from 'node:http';
import { FastResponse } from 'srvx';

/**
 * Answers are srvx's FastResponse: a Response to `app.fetch` callers, but one whose string body
 * and plain headers the node bridge writes in a single `end()`, where a native Response would be
 * streamed through a web ReadableStream (most of the bridge's cost per request).
 */
export const fastResponse = (body: string | null, init: { status: number; headers: Record<string, string> }): Response =>
  new FastResponse(body, init) as Response;

const JSON_HEADERS = {
  'content-type': 'application/json',
  'cache-control': 'no-store, no-cache, must-revalidate, max-age=0',
};

/** Error codes whose body has no `code` field in the reference. */
const CODELESS = new Set(['METHOD_NOT_ALLOWED', 'INTERNAL_SERVER_ERROR']);

/**
 * A success envelope, `{"result":"success","msg":"",...data}` plus a newline, as three pieces:
 * `middle` is the data's own text without its braces (a slice, not a copy), so that parts of
 * the data marked serializeOnce (an event shared by many queues) are not serialized again, and
 * so that `writeSuccess` can hand the pieces to the socket without joining them: a joined body
 * (a rope of 22 KB for a page of messages) was copied flat once to measure its bytes and once
 * more to write it.
 */
export interface SuccessEnvelope {
  head: string;
  middle: string;
  tail: string;
  /** The envelope's length in UTF-8 bytes. */
  bytes: number;
  /** Whether `middle` is all ASCII: then its bytes are its characters, written without encoding. */
  asciiMiddle: boolean;
}

const ENVELOPE_HEAD = '{"result":"success","msg":""';

export function successEnvelope(data: object, ignored: readonly string[] = []): SuccessEnvelope {
  const fields = toJson(data);
  const hasFields = fields.length > 2;
  const head = hasFields ? `${ENVELOPE_HEAD},` : ENVELOPE_HEAD;
  const middle = hasFields ? fields.slice(1, -1) : '';
  const tail = ignored.length > 0 ? `,"ignored_parameters_unsupported":${JSON.stringify(ignored)}}\n` : '}\n';
  // The data's bytes are counted on its own (flat) text: counting a joined body would flatten it.
  const middleBytes = hasFields ? Buffer.byteLength(fields) - 2 : 0;
  return { head, middle, tail, bytes: head.length + middleBytes + Buffer.byteLength(tail), asciiMiddle: middleBytes === middle.length };
}

/** The envelope of a success answer as one string (`successEnvelope` joined). */
export function successBody(data: object, ignored: readonly string[] = []): string {
  const { head, middle, tail } = successEnvelope(data, ignored);
  return head + middle + tail;
}

export function success(data: object, ignored: readonly string[] = []): Response {
  return fastResponse(successBody(data, ignored), { status: 200, headers: JSON_HEADERS });
}

/**
 * Writes a success answer straight to node's response: the bytes srvx writes for
 * `success(...)` (the same empty reason phrase, the same headers in the same order, its
 * content-length last), without the Response object and the bridge between them. A thousand
 * long-polls woken by one message are answered this way. The envelope's pieces are written as
 * they are: node corks the socket for the response, so they leave in one writev, as the bare
 * body would; an ASCII middle goes as latin1, copied rather than encoded.
 */
export function writeSuccess(response: ServerResponse, envelope: SuccessEnvelope, extraHeaders: readonly [string, string][] = []): void {
  const headers = ['content-type', JSON_HEADERS['content-type'], 'cache-control', JSON_HEADERS['cache-control']];
  // Answer-specific headers (the rate limits') go between the fixed ones and the length.
  for (const [name, value] of extraHeaders) headers.push(name, value);
  headers.push('content-length', String(envelope.bytes));
  response.writeHead(200, '', headers);
  response.write(envelope.head, 'latin1');
  if (envelope.middle.length > 0) response.write(envelope.middle, envelope.asciiMiddle ? 'latin1' : 'utf8');
  response.end(envelope.tail, 'utf8');
}

/**
 * What a handler returns once it has written its answer itself (`writeSuccess`): the server
 * recognises it by identity and writes nothing more.
 */
export const WRITTEN: Response = fastResponse(null, { status: 200, headers: {} });

export function failure(error: ApiError, extra: Record<string, unknown> = {}): Response {
  const { status, headers, body } = errorPayload(error, extra);
  return fastResponse(body, { status, headers });
}

/**
 * An error response as plain data, for writers that are not a fetch Response (node-errors.ts).
 * `status` overrides the code's for failures only HTTP has (431, 417).
 */
export function errorPayload(
  error: ApiError,
  extra: Record<string, unknown> = {},
  status = httpStatus(error),
): { status: number; headers: Record<string, string>; body: string } {
  const body: Record<string, unknown> = { result: 'error', msg: error.msg };
  if (!CODELESS.has(error.code)) body.code = error.code;
  Object.assign(body, error.data, extra);
  const headers: Record<string, string> = { ...JSON_HEADERS };
  if (status === 401) headers['www-authenticate'] = 'Basic realm="zulip"';
  if (typeof error.data['retry-after'] === 'number') headers['retry-after'] = String(error.data['retry-after']);
  // The rest of an oversized body is never read, so the connection cannot carry another request;
  // without this it would stay open (and hold up a graceful close) until its keep-alive timeout.
  if (error.code === 'PAYLOAD_TOO_LARGE') headers.connection = 'close';
  return { status, headers, body: `${JSON.stringify(body)}\n` };
}
