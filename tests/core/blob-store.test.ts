/** The blob stores: memory and filesystem behave alike; keys cannot escape the store. */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BlobStore, fileSystemBlobStore, memoryBlobStore } from '@teamchat/core';
import { afterAll, describe, expect, it } from 'vitest';

const root = mkdtempSync(join(tmpdir(), 'teamchat-blobs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let stores = 0;

const drivers: Array<[string, () => BlobStore]> = [
  ['memory', () => memoryBlobStore()],
  ['filesystem', () => fileSystemBlobStore(join(root, `store${++stores}`))],
];

describe.each(drivers)('%s blob store', (_name, make) => {
  it('put, get and delete by key; a missing key is undefined and deleting it is fine', async () => {
    const store = make();
    const key = '1/4e/m2A3MSqFnWRLUf9SaPzQ0Up_/zulip.txt';
    expect(await store.get(key)).toBeUndefined();
    await store.put(key, new Uint8Array([1, 2, 3]));
    expect(await store.get(key)).toEqual(new Uint8Array([1, 2, 3]));
    await store.put(key, new Uint8Array([4]));
    expect(await store.get(key)).toEqual(new Uint8Array([4]));
    await store.delete(key);
    expect(await store.get(key)).toBeUndefined();
    await store.delete(key);
  });

  it('refuses keys that could escape the store', async () => {
    const store = make();
    for (const key of ['', '../x', '1/../../x', '/etc/passwd', '1//x', '1/./x', 'a\\b', 'a\0b']) {
      await expect(store.put(key, new Uint8Array([1]))).rejects.toThrow(/invalid key/);
      await expect(store.get(key)).rejects.toThrow(/invalid key/);
      await expect(store.putStream(key, (async function* () {})())).rejects.toThrow(/invalid key/);
    }
  });
});

describe('filesystem blob store', () => {
  it('keeps one file per key below its root and leaves no temporary files', async () => {
    const dir = join(root, 'layout');
    const store = fileSystemBlobStore(dir);
    await store.put('2/ab/token/a.txt', new TextEncoder().encode('hi'));
    expect(existsSync(join(dir, '2', 'ab', 'token', 'a.txt'))).toBe(true);
    expect(readdirSync(join(dir, '2', 'ab', 'token'))).toEqual(['a.txt']);
    // A second store over the same directory (a restarted server) reads what the first wrote.
    expect(new TextDecoder().decode(await fileSystemBlobStore(dir).get('2/ab/token/a.txt'))).toBe('hi');
  });
});
