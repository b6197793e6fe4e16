/**
 * Transport decoding: turns a request into one flat object of parameters. Values stay form
 * text; the core's schemas parse JSON-typed values. For every method the body's values override
 * the query string's (a name in both takes the body's value; a repeated name, its last value).
 * Only form bodies are read, as the reference does: other content types contribute nothing.
 */
import { type ApiError, badRequest, payloadTooLarge, requestTimeout, type StreamedUpload, type UploadedFile } from '@teamchat/core';
import type { IncomingMessage } from 'node:http';
import { err, ok, type Result } from 'neverthrow';
import { readNodeBody } from './node-body.js';
import type { AnyOperation } from './routes.js';

/** Form text, or a file part handed to the core as bytes (or a stream) with its name and type. */
export type Params = Record<string, string | UploadedFile | StreamedUpload>;

/**
 * Sets a parameter as an own property, whatever its name. Only `__proto__` needs defining: it
 * is the one accessor on Object.prototype, and assigning it would set the prototype. Every other
 * name, even an inherited one (`toString`), becomes an own property by plain assignment, which
 * costs less than defineProperty.
 */
export function setParam(params: Params, name: string, value: string | Params[string]): void {
  if (name === '__proto__') Object.defineProperty(params, name, { value, enumerable: true, writable: true, configurable: true });
  else params[name] = value;
}

/** The query string's parameters. */
export function queryParams(query: string): Params {
  const params: Params = {};
  for (const [name, value] of new URLSearchParams(query)) setParam(params, name, value);
  return params;
}

/** Whether the request carries a body to read. */
export const hasBody = (request: Request) => request.method !== 'GET' && request.method !== 'HEAD' && request.body !== null;

/**
 * The query's and the body's parameters. The body is bounded twice: at most `limitBytes`, and
 * read completely within `deadlineMs` (a client sending a byte a second is answered 408).
 * `nodeMessage` is the request's node:http message when node serves it: its body is read from
 * there (node-body.ts), not through the web stream srvx would build.
 */
export async function readParams(request: Request, query: string, limitBytes: number, deadlineMs: number, nodeMessage?: IncomingMessage): Promise<Result<Params, ApiError>> {
  const params = queryParams(query);
  // srvx gives a served request a body unless it is a GET or HEAD: asking would build its stream.
  if (nodeMessage ? request.method === 'GET' || request.method === 'HEAD' : !hasBody(request)) return ok(params);

  const declared = tooLargeByHeader(request, limitBytes);
  if (declared) return err(declared);
  const body = nodeMessage ? await readNodeBody(nodeMessage, limitBytes, deadlineMs) : await readLimited(request, limitBytes, deadlineMs);
  if (body.isErr()) return err(body.error);
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  const fromBody = await decodeBody(type, body.value, request.headers.get('content-type') ?? '');
  if (fromBody.isErr()) return err(fromBody.error);
  for (const [name, value] of Object.entries(fromBody.value)) setParam(params, name, value);
  return ok(params);
}

async function decodeBody(type: string, bytes: Uint8Array, contentType: string): Promise<Result<Params, ApiError>> {
  if (type.startsWith('application/x-www-form-urlencoded')) {
    const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
    return ok(queryParams(text));
  }
  if (type.startsWith('multipart/form-data')) {
    try {
      const form = await new Response(bytes as unknown as BodyInit, { headers: { 'content-type': contentType } }).formData();
      const params: Params = {};
      for (const [name, value] of form) setParam(params, name, typeof value === 'string' ? value : await uploadedFile(value));
      return ok(params);
    } catch {
      return err(badRequest('Malformed multipart request body'));
    }
  }
  return ok({});
}

/** Reads the body, refusing more than `limit` bytes whether or not Content-Length says so. */
async function readLimited(request: Request, limit: number, deadlineMs: number): Promise<Result<Uint8Array, ApiError>> {
  const reader = request.body!.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<'expired'>((resolve) => (timer = setTimeout(() => resolve('expired'), deadlineMs)));
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array> | 'expired';
      try {
        chunk = await Promise.race([reader.read(), expired]);
      } catch {
        return err(badRequest('Could not read the request body'));
      }
      if (chunk === 'expired') {
        await reader.cancel().catch(() => undefined);
        return err(requestTimeout());
      }
      if (chunk.done) break;
      size += chunk.value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => undefined);
        return err(payloadTooLarge(limit));
      }
      chunks.push(chunk.value);
    }
  } finally {
    clearTimeout(timer);
  }
  return ok(Buffer.concat(chunks));
}

/** A body whose Content-Length already says it is over the limit: refused unread. */
export function tooLargeByHeader(request: Request, limit: number): ApiError | undefined {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  return declared > limit ? payloadTooLarge(limit) : undefined;
}

/**
 * Parameters the operation does not declare, sorted, for `ignored_parameters_unsupported`.
 * `client` is consumed by every endpoint (it names the calling client). Files are never listed:
 * the reference reads them apart from the form fields, whatever their field name.
 */
export function ignoredParameters(params: Params, operation: AnyOperation): string[] {
  let known = knownParameters.get(operation);
  if (!known) knownParameters.set(operation, (known = new Set([...Object.keys(operation.params.schema ?? {}), 'client'])));
  const ignored: string[] = [];
  for (const name in params) if (!known.has(name) && typeof params[name] === 'string') ignored.push(name);
  return ignored.length > 1 ? ignored.sort() : ignored;
}

/** Each operation's declared parameters (and `client`, which every route takes), built once. */
const knownParameters = new WeakMap<AnyOperation, ReadonlySet<string>>();

/** A multipart file part as the core's transport-neutral upload. */
async function uploadedFile(file: File): Promise<UploadedFile> {
  return { filename: file.name, contentType: file.type, bytes: new Uint8Array(await file.arrayBuffer()) };
}
