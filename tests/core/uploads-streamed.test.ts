/**
 * Streamed uploads in the core: BlobStore.putStream for both stores (nothing left behind on a
 * failure, private file modes) and doUploadFile reading a web stream or an async iterable, with
 * the size limit enforced as the bytes arrive.
 */
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BlobStore, doUploadFile, fileSystemBlobStore, memoryBlobStore } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { attachmentsOf, download, text } from './attachment-helpers.js';
import { channelWorld } from './channel-helpers.js';
import { expectBadRequest } from './fixtures.js';

async function* chunks(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield text(part);
}

/** Every file under `dir`, relative, sorted. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

const stores: [string, () => { store: BlobStore; files: () => string[] }][] = [
  ['memory', () => {
    const store = memoryBlobStore();
    return { store, files: () => store.keys() };
  }],
  ['file system', () => {
    const dir = mkdtempSync(join(tmpdir(), 'teamchat-blobs-'));
    return { store: fileSystemBlobStore(dir), files: () => filesUnder(dir) };
  }],
];

describe.each(stores)('BlobStore.putStream (%s)', (_name, make) => {
  it('stores the chunks under the key and counts their bytes', async () => {
    const { store, files } = make();
    expect(await store.putStream('1/ab/key/notes.txt', chunks('hello ', 'streamed ', 'world'))).toBe(20);
    expect(await store.get('1/ab/key/notes.txt')).toEqual(text('hello streamed world'));
    expect(files()).toEqual(['1/ab/key/notes.txt']);
  });

  it('leaves nothing behind when the source fails, and rethrows its error as is', async () => {
    const { store, files } = make();
    const boom = new Error('client went away');
    async function* failing() {
      yield text('half a file');
      throw boom;
    }
    await expect(store.putStream('1/ab/key/broken.txt', failing())).rejects.toBe(boom);
    expect(files()).toEqual([]);
    expect(await store.get('1/ab/key/broken.txt')).toBeUndefined();
  });
});

describe('the file-system store', () => {
  it('writes blobs 0600 in directories 0700', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'teamchat-blobs-'));
    const store = fileSystemBlobStore(dir);
    await store.putStream('1/ab/key/a.txt', chunks('a'));
    await store.put('1/cd/key/b.txt', text('b'));
    for (const path of ['1/ab/key/a.txt', '1/cd/key/b.txt']) expect(statSync(join(dir, path)).mode & 0o777).toBe(0o600);
    for (const path of ['1', '1/ab', '1/ab/key']) expect(statSync(join(dir, path)).mode & 0o777).toBe(0o700);
  });
});

describe('doUploadFile with a streamed file', () => {
  it('reads a web ReadableStream or an async iterable into the blob store; size is the bytes read', async () => {
    const blobs = memoryBlobStore();
    const c = await channelWorld({ uploads: blobs });
    const web = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(text('from a '));
        controller.enqueue(text('web stream'));
        controller.close();
      },
    });
    const first = must(await doUploadFile(c.w.ctx, c.w.as(c.member), { file: { filename: 'web.txt', contentType: 'text/plain', stream: web } }));
    const second = must(await doUploadFile(c.w.ctx, c.w.as(c.member), { f: { filename: 'it.txt', contentType: 'text/plain', stream: chunks('iter', 'able') } }));
    const pathOf = (url: string) => url.slice('/user_uploads/'.length);
    expect(must(await download(c.w, c.member, pathOf(first.url))).bytes).toEqual(text('from a web stream'));
    expect((await attachmentsOf(c.w, c.member)).attachments.map((a) => [a.name, a.size])).toEqual([['web.txt', 17], ['it.txt', 8]]);
    expect(second.filename).toBe('it.txt');
  });

  it('stops reading at the limit: an endless source is refused after a bounded number of chunks', async () => {
    const blobs = memoryBlobStore();
    const c = await channelWorld({ uploads: blobs, config: { maxFileUploadSizeMib: 1 } });
    let pulled = 0;
    async function* endless() {
      for (;;) {
        pulled += 1;
        yield new Uint8Array(64 * 1024);
      }
    }
    const result = await doUploadFile(c.w.ctx, c.w.as(c.member), { file: { filename: 'inf.bin', contentType: 'application/octet-stream', stream: endless() } });
    expectBadRequest(result, 'Uploaded file is larger than the allowed limit of 1 MiB');
    // 16 chunks make the limit; the 17th is the first byte too many, and nothing more is asked for.
    expect(pulled).toBe(17);
    expect(blobs.keys()).toEqual([]);
    expect((await attachmentsOf(c.w, c.member)).attachments).toEqual([]);
    c.drain();
  });

  it('a source that fails is a 400, leaving no blob, row or event', async () => {
    const blobs = memoryBlobStore();
    const c = await channelWorld({ uploads: blobs });
    c.drain();
    async function* failing() {
      yield text('part');
      throw new Error('reset');
    }
    const result = await doUploadFile(c.w.ctx, c.w.as(c.member), { file: { filename: 'x.txt', contentType: 'text/plain', stream: failing() } });
    expectBadRequest(result, 'Could not read the uploaded file');
    expect(blobs.keys()).toEqual([]);
    expect(c.drain()).toEqual([]);
  });

  it('a second file found once the first is read is refused, and the first is not kept', async () => {
    const blobs = memoryBlobStore();
    const c = await channelWorld({ uploads: blobs });
    let another = false;
    async function* firstThenAnother() {
      yield text('first');
      // What a streaming transport learns when the body holds another file part after this one.
      another = true;
    }
    const first = { filename: 'a.txt', contentType: 'text/plain', stream: firstThenAnother(), moreFiles: () => another };
    expectBadRequest(await doUploadFile(c.w.ctx, c.w.as(c.member), { first }), 'You may only upload one file at a time');
    expect(blobs.keys()).toEqual([]);
  });
});
