/**
 * Files of a directory read for serving: a request path mapped to a file strictly inside the
 * directory, its content type, a strong ETag, and its gzip form. A built client never changes
 * while served except by a rebuild, so each file is read, hashed and compressed once, and read
 * again only when its size or modification time changes.
 */
import { createHash } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface StaticFile {
  body: Buffer;
  contentType: string;
  /** The quoted strong ETag of `body` (identity encoding). */
  etag: string;
  /** Whether a compressed form may be sent (text formats; images and fonts are compressed already). */
  compressible: boolean;
  /** The file's `.br` or `.gz` sibling written by the build, when it has one. */
  precompressed: { br?: Buffer; gzip?: Buffer };
  /** gzip made here, on first demand, when the build wrote no `.gz`. */
  gzipped?: Buffer;
}

const TYPES: Record<string, { type: string; compressible: boolean }> = {
  '.html': { type: 'text/html; charset=utf-8', compressible: true },
  '.js': { type: 'text/javascript; charset=utf-8', compressible: true },
  '.mjs': { type: 'text/javascript; charset=utf-8', compressible: true },
  '.css': { type: 'text/css; charset=utf-8', compressible: true },
  '.json': { type: 'application/json', compressible: true },
  '.map': { type: 'application/json', compressible: true },
  '.webmanifest': { type: 'application/manifest+json', compressible: true },
  '.txt': { type: 'text/plain; charset=utf-8', compressible: true },
  '.svg': { type: 'image/svg+xml', compressible: true },
  '.ico': { type: 'image/x-icon', compressible: true },
  '.wasm': { type: 'application/wasm', compressible: true },
  '.png': { type: 'image/png', compressible: false },
  '.jpg': { type: 'image/jpeg', compressible: false },
  '.jpeg': { type: 'image/jpeg', compressible: false },
  '.gif': { type: 'image/gif', compressible: false },
  '.webp': { type: 'image/webp', compressible: false },
  '.avif': { type: 'image/avif', compressible: false },
  '.woff': { type: 'font/woff', compressible: false },
  '.woff2': { type: 'font/woff2', compressible: false },
  '.ttf': { type: 'font/ttf', compressible: true },
  '.mp3': { type: 'audio/mpeg', compressible: false },
  '.ogg': { type: 'audio/ogg', compressible: false },
};
const UNKNOWN_TYPE = { type: 'application/octet-stream', compressible: false };

/** Below this a compressed form saves less than its headers cost. */
const MIN_COMPRESSED_SIZE = 1024;

/**
 * The relative path a URL path names, or undefined when it could escape the directory or name a
 * hidden file: `..` and `.` segments (also percent-encoded), backslashes (a separator on some
 * systems), NUL, and segments starting with `.` (`.vite/manifest.json`, `.env`).
 */
export function safeRelativePath(urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const segments = decoded.split('/').filter((segment) => segment !== '');
  if (segments.length === 0) return undefined;
  if (segments.some((segment) => segment.startsWith('.'))) return undefined;
  return segments.join('/');
}

/** Reads files of one directory; `read` answers undefined for anything that is not a regular file inside it. */
export class StaticDirectory {
  private readonly cache = new Map<string, { size: number; mtimeMs: number; file: StaticFile }>();

  constructor(readonly root: string) {}

  async read(relativePath: string): Promise<StaticFile | undefined> {
    const path = join(this.root, relativePath);
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    const cached = this.cache.get(path);
    if (cached && cached.size === info.size && cached.mtimeMs === info.mtimeMs) return cached.file;
    // A symbolic link inside the directory may point outside it.
    if (!(await this.contains(path))) return undefined;
    const body = await readFile(path).catch(() => undefined);
    if (!body) return undefined;
    const { type, compressible } = TYPES[extname(path).toLowerCase()] ?? UNKNOWN_TYPE;
    const file: StaticFile = {
      body,
      contentType: type,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
      compressible: compressible && body.byteLength >= MIN_COMPRESSED_SIZE,
      precompressed: {},
    };
    if (file.compressible) {
      file.precompressed.br = await readFile(`${path}.br`).catch(() => undefined);
      file.precompressed.gzip = await readFile(`${path}.gz`).catch(() => undefined);
    }
    this.cache.set(path, { size: info.size, mtimeMs: info.mtimeMs, file });
    return file;
  }

  private async contains(path: string): Promise<boolean> {
    const [root, real] = await Promise.all([realpath(this.root).catch(() => undefined), realpath(path).catch(() => undefined)]);
    if (root === undefined) return false;
    return real?.startsWith(root.endsWith(sep) ? root : root + sep) ?? false;
  }
}

/** The file's gzip form: the build's `.gz`, else compressed here once. */
export function gzipOf(file: StaticFile): Buffer {
  file.gzipped ??= file.precompressed.gzip ?? gzipSync(file.body, { level: 9 });
  return file.gzipped;
}
