/**
 * Answers node:http gives itself (bad request line, oversized or missing headers, timeouts,
 * unknown `Expect`), rewritten so that every response the server sends is the JSON envelope of
 * API.md 2.1 with the right status.
 */
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { type ApiError, badRequest, requestTimeout } from '@teamchat/core';
import { errorPayload } from './respond.js';

/** A socket node:http gave up on, as node types it internally (the response it may be writing). */
type ClientSocket = Duplex & { _httpMessage?: ServerResponse | null };

/** How long an error answer may take to reach a client before its socket is destroyed anyway. */
const FLUSH_GRACE_MS = 2000;

/**
 * Node's rejection of a request it could not parse or that arrived too slowly, by error code,
 * with the status when it is one only HTTP has.
 */
function parseFailure(code: string | undefined): { error: ApiError; status?: number } {
  if (code === 'HPE_HEADER_OVERFLOW') return { error: badRequest('Request header fields too large'), status: 431 };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { error: requestTimeout() };
  return { error: badRequest('Malformed HTTP request') };
}

/**
 * node:http's `clientError`: the envelope where a response can still be sent (no answer to this
 * request has started), then the socket is destroyed, as node itself does: a slow or hostile
 * client keeps nothing open.
 */
export function answerUnparsableRequest(error: NodeJS.ErrnoException, socket: ClientSocket): void {
  const answering = socket._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || answering?.headersSent) {
    socket.destroy();
    return;
  }
  const failure = parseFailure(error.code);
  const payload = errorPayload(failure.error, {}, failure.status);
  const headers = { ...payload.headers, 'content-length': String(Buffer.byteLength(payload.body)), connection: 'close' };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  const status = payload.status;
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head.join('')}\r\n${payload.body}`, () => socket.destroy());
  setTimeout(() => socket.destroy(), FLUSH_GRACE_MS).unref();
}

/** Writes an error envelope as the whole response and closes the connection after it. */
function answer(response: ServerResponse, error: ApiError, status?: number): void {
  const payload = errorPayload(error, {}, status);
  response.writeHead(payload.status, { ...payload.headers, connection: 'close' });
  response.end(payload.body);
}

/**
 * An HTTP/1.1 request without Host is invalid (RFC 9112 3.2): 400, in the envelope. HTTP/1.0
 * requests may omit it and go on to the default realm. True when the request was answered.
 */
export function answerMissingHost(request: IncomingMessage, response: ServerResponse): boolean {
  if (request.headers.host !== undefined || request.httpVersion === '1.0') return false;
  answer(response, badRequest('Missing Host header'));
  return true;
}

/** `Expect` other than `100-continue`: 417, in the envelope (node's own answer has no body). */
export function answerExpectation(_request: IncomingMessage, response: ServerResponse): void {
  answer(response, badRequest('Expectation Failed'), 417);
}
