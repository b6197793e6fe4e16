/**
 * Transport decoding: turns a request into one flat object of parameters. Values stay form
 * text; the core's schemas parse JSON-typed values. For every method the body is read first,
 * then the query string (a name in both takes the body's value; a repeated name, its last value).
 * Only form bodies are read, as the reference does: other content types contribute nothing.
 */
import { type ApiError, badRequest, payloadTooLarge, type UploadedFile } from '@teamchat/core';
import { err, ok, type Result } from 'neverthrow';

/** Form text, or a file part handed to the core as bytes with its name and type. */
export type Params = Record<string, string | UploadedFile>;

export async function readParams(request: Request, query: string, limitBytes: number): Promise<Result<Params, ApiError>> {
  const params: Params = {};
  for (const [name, value] of new URLSearchParams(query)) params[name] = value;
  if (request.method === 'GET' || request.method === 'HEAD' || !request.body) return ok(params);

  const body = await readLimited(request, limitBytes);
  if (body.isErr()) return err(body.error);
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  const fromBody = await decodeBody(type, body.value, request.headers.get('content-type') ?? '');
  if (fromBody.isErr()) return err(fromBody.error);
  return ok({ ...params, ...fromBody.value });
}

async function decodeBody(type: string, bytes: Uint8Array, contentType: string): Promise<Result<Params, ApiError>> {
  if (type.startsWith('application/x-www-form-urlencoded')) {
    const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
    return ok(Object.fromEntries(new URLSearchParams(text)));
  }
  if (type.startsWith('multipart/form-data')) {
    try {
      const form = await new Response(bytes as unknown as BodyInit, { headers: { 'content-type': contentType } }).formData();
      const params: Params = {};
      for (const [name, value] of form) params[name] = typeof value === 'string' ? value : await uploadedFile(value);
      return ok(params);
    } catch {
      return err(badRequest('Malformed multipart request body'));
    }
  }
  return ok({});
}

/** Reads the body, refusing more than `limit` bytes whether or not Content-Length says so. */
async function readLimited(request: Request, limit: number): Promise<Result<Uint8Array, ApiError>> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > limit) return err(payloadTooLarge(limit));
  const reader = request.body!.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      return err(badRequest('Could not read the request body'));
    }
    if (chunk.done) break;
    size += chunk.value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return err(payloadTooLarge(limit));
    }
    chunks.push(chunk.value);
  }
  return ok(Buffer.concat(chunks));
}

/**
 * Parameters the operation does not declare, sorted, for `ignored_parameters_unsupported`.
 * `client` is consumed by every endpoint (it names the calling client). Files are never listed:
 * the reference reads them apart from the form fields, whatever their field name.
 */
export function ignoredParameters(params: Params, declared: readonly string[]): string[] {
  const known = new Set([...declared, 'client']);
  return Object.keys(params)
    .filter((name) => !known.has(name) && typeof params[name] === 'string')
    .sort();
}

/** A multipart file part as the core's transport-neutral upload. */
async function uploadedFile(file: File): Promise<UploadedFile> {
  return { filename: file.name, contentType: file.type, bytes: new Uint8Array(await file.arrayBuffer()) };
}
