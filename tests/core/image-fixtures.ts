/**
 * Real images for the avatar tests, built by hand (the tests do not depend on an image library):
 * PNGs of any size and colour, a 1×1 GIF, and reading a PNG's dimensions from its header.
 */
import { crc32, deflateSync } from 'node:zlib';
import type { UploadedFile } from '@teamchat/core';

function chunk(type: string, data: Uint8Array): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An 8-bit RGB PNG of one colour. `declared` overrides the size in the header (for decompression bombs). */
export function png(width: number, height: number, rgb: [number, number, number] = [200, 30, 30], declared?: [number, number]): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(declared?.[0] ?? width, 0);
  header.writeUInt32BE(declared?.[1] ?? height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', new Uint8Array())]));
}

/** A 1×1 GIF. */
export const GIF_1X1 = new Uint8Array(Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64'));

/** A PNG's width and height, read from its IHDR chunk. */
export function pngSize(bytes: Uint8Array): [number, number] {
  const view = Buffer.from(bytes);
  expectPng(view);
  return [view.readUInt32BE(16), view.readUInt32BE(20)];
}

function expectPng(bytes: Buffer): void {
  if (bytes.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
}

/** An uploaded file for the core operations. */
export const imageFile = (bytes: Uint8Array, filename = 'me.png', contentType = 'image/png'): UploadedFile => ({ filename, contentType, bytes });
