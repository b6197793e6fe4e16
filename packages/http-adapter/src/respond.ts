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

/** The envelope of a success answer: `{"result":"success","msg":"",...data}` plus a newline. */
export function successBody(data: object, ignored: readonly string[] = []): string {
  // The envelope's fields are written around the data's own text, so that parts of the data
  // marked serializeOnce (an event shared by many queues) are not serialized again.
  let body = '{"result":"success","msg":""';
  const fields = toJson(data);
  if (fields.length > 2) body += `,${fields.slice(1, -1)}`;
  if (ignored.length > 0) body += `,"ignored_parameters_unsupported":${JSON.stringify(ignored)}`;
  return `${body}}\n`;
}

export function success(data: object, ignored: readonly string[] = []): Response {
  return fastResponse(successBody(data, ignored), { status: 200, headers: JSON_HEADERS });
}

/**
 * Writes a success answer straight to node's response: the bytes srvx writes for
 * `success(...)` (the same empty reason phrase, the same headers in the same order, its
 * content-length last), without the Response object and the bridge between them. A thousand
 * long-polls woken by one message are answered this way.
 */
export function writeSuccess(response: ServerResponse, body: string, extraHeaders: readonly [string, string][] = []): void {
  const headers = ['content-type', JSON_HEADERS['content-type'], 'cache-control', JSON_HEADERS['cache-control']];
  // Answer-specific headers (the rate limits') go between the fixed ones and the length.
  for (const [name, value] of extraHeaders) headers.push(name, value);
  headers.push('content-length', String(Buffer.byteLength(body)));
  response.writeHead(200, '', headers);
  response.end(body);
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
