/**
 * Uploads whose bytes arrive as a stream (the HTTP adapter's multipart parts, or any embedder's
 * source), so a file never has to be held in memory whole. They sit among an operation's
 * parameters like buffered files (schemas/upload.ts) and are read once, by the operation.
 */
import { isUploadedFile, type UploadedFile } from '../schemas/upload.js';

/** A web stream or any async iterable of byte chunks. */
export type ByteSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/** One file whose bytes are read from `stream`. `contentType` is the client's claim. */
export interface StreamedUpload {
  filename: string;
  contentType: string;
  stream: ByteSource;
  /**
   * Whether the request turned out to hold more files, asked once `stream` has ended: a
   * streaming transport (a multipart body) only learns of the parts after this one then.
   */
  moreFiles?: () => boolean;
}

/** Whether a parameter value is a streamed upload. */
export function isStreamedUpload(value: unknown): value is StreamedUpload {
  if (typeof value !== 'object' || value === null) return false;
  const file = value as Partial<StreamedUpload>;
  return typeof file.filename === 'string' && typeof file.contentType === 'string' && isByteSource(file.stream);
}

function isByteSource(value: unknown): value is ByteSource {
  if (typeof value !== 'object' || value === null) return false;
  return typeof (value as ReadableStream).getReader === 'function' || Symbol.asyncIterator in value;
}

/** The files, buffered or streamed, among an operation's input, in parameter order. */
export function inputFiles(input: unknown): (UploadedFile | StreamedUpload)[] {
  if (typeof input !== 'object' || input === null) return [];
  return Object.values(input).filter((value) => isUploadedFile(value) || isStreamedUpload(value));
}

/** The source failed while it was read (the client went away, the transport gave up). */
export class ByteSourceFailed extends Error {}

/** The source yielded more than the limit allowed. */
export class ByteLimitExceeded extends Error {}

/**
 * The chunks of a file, buffered or streamed, stopping with ByteLimitExceeded as soon as more
 * than `limit` bytes arrived: the excess is never read further, let alone stored. A source's own
 * failure becomes ByteSourceFailed, so it is not mistaken for a storage failure.
 */
export async function* limitedChunks(file: UploadedFile | StreamedUpload, limit: number): AsyncGenerator<Uint8Array> {
  if (isUploadedFile(file)) {
    if (file.bytes.byteLength > limit) throw new ByteLimitExceeded();
    yield file.bytes;
    return;
  }
  let size = 0;
  const iterator = chunksOf(file.stream);
  for (;;) {
    let next: IteratorResult<Uint8Array>;
    try {
      next = await iterator.next();
    } catch (error) {
      throw new ByteSourceFailed('the upload stream failed', { cause: error });
    }
    if (next.done) return;
    size += next.value.byteLength;
    if (size > limit) {
      await iterator.return?.(undefined).catch(() => undefined);
      throw new ByteLimitExceeded();
    }
    yield next.value;
  }
}

function chunksOf(source: ByteSource): AsyncIterator<Uint8Array> {
  if (Symbol.asyncIterator in source) return (source as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  const reader = (source as ReadableStream<Uint8Array>).getReader();
  return {
    next: () => reader.read() as Promise<IteratorResult<Uint8Array>>,
    return: async () => {
      await reader.cancel();
      return { done: true, value: undefined };
    },
  };
}
