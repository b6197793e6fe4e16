/**
 * The built web client (packages/web/dist) at `/`: `index.html` for `/`, the build's hashed
 * files under `/assets/` kept by browsers for a year (their names change with their content),
 * everything else revalidated on each load (ETag, 304). The API, the probes and the file routes
 * are matched before this; paths under /api/ never reach a file. The client uses hash routing,
 * so no other path needs index.html.
 */
import { notFound } from '@teamchat/core';
import type { H3Event } from 'h3';
import { failure, fastResponse } from './respond.js';
import { gzipOf, safeRelativePath, StaticDirectory, type StaticFile } from './static-file.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/**
 * Where the page may load from: its own origin (the API is same-origin), images also from
 * anywhere over HTTPS (link previews, external avatars) and as data/blob URLs (upload previews).
 * A defence in depth under the client's sanitizer: an injected inline script does not run.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

/** Answered for `/` when the directory has no index.html: how to get one. */
const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>teamchat: web client not built</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; line-height: 1.5">
<h1>The web client is not built</h1>
<p>This teamchat server is running and its API answers under <code>/api/v1</code>, but it found no
built web client to serve here.</p>
<p>Build it from the teamchat checkout with <code>npx -y pnpm@10 run build</code> (it writes
<code>packages/web/dist</code>) and reload this page, or start the server with
<code>teamchat serve --web-dir DIR</code> naming a directory that holds a built client.</p>
</body></html>
`;

/** The handler of every GET or HEAD path that no API, probe or file route took. */
export function createWebClientHandler(webRoot: string): (event: H3Event) => Promise<Response> {
  const directory = new StaticDirectory(webRoot);
  return async (event) => {
    const method = event.req.method;
    const path = event.url.pathname;
    if ((method !== 'GET' && method !== 'HEAD') || path === '/api' || path.startsWith('/api/')) return failure(notFound());
    const isIndex = path === '/' || path === '/index.html';
    const relative = isIndex ? 'index.html' : safeRelativePath(path);
    const file = relative === undefined ? undefined : await directory.read(relative);
    if (!file) {
      if (!isIndex) return failure(notFound());
      return fastResponse(method === 'HEAD' ? null : NOT_BUILT_PAGE, {
        status: 404,
        headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
      });
    }
    return answerFile(event.req, file, {
      'cache-control': path.startsWith('/assets/') ? IMMUTABLE : REVALIDATE,
      ...(isIndex ? { 'content-security-policy': CONTENT_SECURITY_POLICY, 'referrer-policy': 'same-origin' } : {}),
    });
  };
}

/** The file in the best encoding the request accepts, or 304 when the client's copy is current. */
function answerFile(request: Request, file: StaticFile, extra: Record<string, string>): Response {
  const encoding = file.compressible ? chooseEncoding(request.headers.get('accept-encoding') ?? '', file) : undefined;
  const body = encoding === 'br' ? file.precompressed.br! : encoding === 'gzip' ? gzipOf(file) : file.body;
  // Each encoding is a different representation, so it has its own tag.
  const etag = encoding === undefined ? file.etag : `${file.etag.slice(0, -1)}-${encoding}"`;
  const headers: Record<string, string> = {
    'content-type': file.contentType,
    etag,
    'x-content-type-options': 'nosniff',
    ...extra,
  };
  if (file.compressible) headers.vary = 'Accept-Encoding';
  if (encoding) headers['content-encoding'] = encoding;
  if (matchesEtag(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers });
  headers['content-length'] = String(body.byteLength);
  return new Response(request.method === 'HEAD' ? null : (body as unknown as BodyInit), { headers });
}

/** Brotli when the build wrote it and the client takes it, else gzip when taken, else none. */
function chooseEncoding(acceptEncoding: string, file: StaticFile): 'br' | 'gzip' | undefined {
  const accepted = new Set<string>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim());
    const refused = params.some((p) => /^q=0(\.0*)?$/.test(p));
    if (name && !refused) accepted.add(name);
  }
  if (file.precompressed.br && accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return undefined;
}

/** If-None-Match (RFC 9110 13.1.2): weak comparison against any listed tag, or `*`. */
function matchesEtag(header: string | null, etag: string): boolean {
  if (header === null) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
