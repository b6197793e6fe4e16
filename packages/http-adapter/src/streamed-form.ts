/**
 * Multipart bodies of routes that take files (POST /user_uploads), read as a stream: the
 * operation starts as soon as the first file part begins and reads that file's bytes as they
 * arrive, so no upload is ever held in memory whole. Only transport decoding happens here; the
 * file's size limit and the one-file rule are the core's.
 */
import type { Readable } from 'node:stream';
import { type ApiError, badRequest, payloadTooLarge, type StreamedUpload } from '@teamchat/core';
import busboy, { type Busboy } from 'busboy';
import { err, ok, type Result } from 'neverthrow';
import { type Params, setParam } from './params.js';

export interface StreamedForm {
  /**
   * The query's and the body's parameters: the text fields before the first file, that file as
   * a StreamedUpload, then whatever follows it as the body is read (so once the file's stream
   * has ended, every part of the body is here, later files included, and `moreFiles` says so).
   */
  params: Params;
  /** Why reading the body failed (too large, malformed, cut off), if it did. */
  failure(): ApiError | undefined;
  /** Whether every byte of the body was read. */
  complete(): boolean;
  /** Stops reading the body and releases the parser (after the operation has returned). */
  stop(): void;
}

const malformed = () => badRequest('Malformed multipart request body');

/**
 * Starts reading a multipart body of at most `limit` bytes, whose text fields together hold at
 * most `fieldLimit` (they are kept in memory, unlike the file); resolves once the first file
 * part begins, or once the whole body is read if it has no file.
 */
export async function startStreamedForm(request: Request, params: Params, limit: number, fieldLimit: number): Promise<Result<StreamedForm, ApiError>> {
  let parser: Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': request.headers.get('content-type') ?? '' },
      defParamCharset: 'utf8',
      // The body's size bounds everything; these bound the bookkeeping per part.
      limits: { fieldSize: fieldLimit, fields: 1000, files: 10, parts: 1010, headerPairs: 100 },
    });
  } catch {
    return err(malformed());
  }
  const reader = request.body!.getReader();
  let failure: ApiError | undefined;
  let complete = false;
  let stopped = false;
  let fileCount = 0;
  let currentFile: Readable | undefined;
  let started!: () => void;
  const firstFileOrEnd = new Promise<void>((resolve) => (started = resolve));
  let parsed!: () => void;
  let parseFailed!: (error: Error) => void;
  const bodyParsed = new Promise<void>((resolve, reject) => {
    parsed = resolve;
    parseFailed = reject;
  });
  bodyParsed.catch(() => undefined);

  const fail = (error: ApiError) => {
    failure ??= error;
    currentFile?.destroy(new Error(failure.msg));
    parseFailed(new Error(failure.msg));
    started();
  };
  let fieldBytes = 0;
  const addField = (name: string, value: string, truncated: boolean) => {
    fieldBytes += Buffer.byteLength(value);
    if (truncated || fieldBytes > fieldLimit) return fail(payloadTooLarge(fieldLimit));
    setParam(params, name, value);
  };
  parser.on('field', (name, value, info) => addField(name, value, info.valueTruncated));
  parser.on('file', (name, stream, info) => {
    // Failures reach a reader through its iteration; an 'error' nobody awaits any more (the
    // part was read to its end) must not become an uncaught exception that ends the process.
    stream.on('error', () => undefined);
    // busboy takes an octet-stream part without a file name for a file; the reference, for a field.
    if (info.filename === undefined) {
      void fieldText(stream, fieldLimit).then((text) => addField(name, text ?? '', text === undefined), () => undefined);
      return;
    }
    fileCount += 1;
    const first = fileCount === 1;
    if (first) {
      currentFile = stream;
      stream.once('end', () => (currentFile = undefined));
    } else {
      // Only the first file is read; later ones are counted (the core refuses them) and skipped.
      stream.resume();
    }
    const upload: StreamedUpload = {
      filename: info.filename,
      contentType: info.mimeType,
      stream: first ? fileChunks(stream, bodyParsed) : unreadable(),
      moreFiles: () => fileCount > 1,
    };
    setParam(params, Object.hasOwn(params, name) ? `${name}\0${fileCount}` : name, upload);
    started();
  });
  parser.on('close', () => {
    complete = true;
    parsed();
    started();
  });
  parser.on('error', () => fail(malformed()));

  void (async () => {
    let size = 0;
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch {
        return fail(badRequest('Could not read the request body'));
      }
      if (stopped || failure) return;
      if (chunk.done) return void parser.end();
      size += chunk.value.byteLength;
      if (size > limit) return fail(payloadTooLarge(limit));
      // The callback comes once the parser has passed the chunk on, which for a file part is
      // once the operation has read it: the client is read no faster than the blob is written.
      await new Promise<void>((resolve) => parser.write(chunk.value, () => resolve()));
    }
  })();

  await firstFileOrEnd;
  if (failure && fileCount === 0) return err(failure);
  return ok({
    params,
    failure: () => failure,
    complete: () => complete,
    stop() {
      stopped = true;
      if (complete) return;
      void reader.cancel().catch(() => undefined);
      parser.destroy();
    },
  });
}

/** A file part's bytes; it ends only once the rest of the body is parsed, so later parts are known. */
async function* fileChunks(stream: Readable, bodyParsed: Promise<void>): AsyncGenerator<Uint8Array> {
  for await (const chunk of stream) yield chunk as Buffer;
  await bodyParsed;
}

/** A part's bytes as text, or undefined past `limit` bytes (the rest is skipped, not kept). */
async function fieldText(stream: Readable, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).byteLength;
    if (size <= limit) chunks.push(chunk as Buffer);
  }
  return size > limit ? undefined : Buffer.concat(chunks).toString('utf8');
}

// biome-ignore lint/correctness/useYield: a stream whose first read fails, as a second file's does
async function* unreadable(): AsyncGenerator<Uint8Array> {
  throw new Error('only the first file of a streamed form can be read');
}
