/**
 * A form body read straight from node's IncomingMessage, for requests served by node:http.
 * srvx would otherwise wrap the message in a web ReadableStream (Readable.toWeb) for the one
 * read of a small form, which cost more than the read itself. The answers are those of
 * readLimited's web path (params.ts) over the same message: the bytes, 413 past the limit and
 * 408 past the deadline (the rest is left unread and the answer closes the connection, see
 * app.ts `unread`), and 400 when the message fails or ends early.
 */
import type { IncomingMessage } from 'node:http';
import { type ApiError, badRequest, payloadTooLarge, requestTimeout } from '@teamchat/core';
import { err, ok, type Result } from 'neverthrow';

const unreadable = () => badRequest('Could not read the request body');

/** Reads `message`'s body, at most `limit` bytes and within `deadlineMs`. */
export function readNodeBody(message: IncomingMessage, limit: number, deadlineMs: number): Promise<Result<Uint8Array, ApiError>> {
  // A message already ended, failed or abandoned has no body left to read (srvx answers an errored stream).
  if (message.readableEnded || message.destroyed || message.errored || message.aborted) return Promise.resolve(err(unreadable()));
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (result: Result<Uint8Array, ApiError>, stop: boolean) => {
      clearTimeout(timer);
      message.off('data', onData);
      message.off('end', onEnd);
      message.off('error', onFailure);
      message.off('close', onClose);
      // Destroying the message would reset the socket before the answer is written.
      if (stop) message.pause();
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) settle(err(payloadTooLarge(limit)), true);
      else chunks.push(chunk);
    };
    const onEnd = () => settle(ok(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)), false);
    const onFailure = () => settle(err(unreadable()), false);
    // Closed before its end: the client went away mid-body.
    const onClose = () => {
      if (!message.readableEnded) onFailure();
    };
    const timer = setTimeout(() => settle(err(requestTimeout()), true), deadlineMs);
    message.on('data', onData);
    message.on('end', onEnd);
    message.on('error', onFailure);
    message.on('close', onClose);
  });
}
