/**
 * Files served outside /api/v1: GET or HEAD only, the realm taken from the Host header, errors
 * in the JSON envelope. Public files (custom emoji images, which pages load through `<img>`)
 * need no credentials; users' uploads need the same Basic credentials as the API, and are
 * served privately, inline only for types that cannot run script in the server's origin.
 */
import { type Ctx, methodNotAllowed, type ServedFile } from '@teamchat/core';
import type { H3Event } from 'h3';
import { identify } from './auth.js';
import { failure } from './respond.js';
import type { FileRoute } from './routes.js';

export async function serveFile(ctx: Ctx, route: FileRoute, event: H3Event): Promise<Response> {
  const method = event.req.method;
  if (method !== 'GET' && method !== 'HEAD') return failure(methodNotAllowed(), { allowed_methods: ['GET'] });
  const caller = await identify(ctx, route.operation, event.req);
  if (caller.isErr()) return failure(caller.error);
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries((event.context.params ?? {}) as Record<string, string>)) params[name] = decodeURIComponent(value);
  const file = await route.operation(ctx, caller.value, params);
  if (file.isErr()) return failure(file.error);
  const { contentType, bytes } = file.value;
  return new Response(method === 'HEAD' ? null : (bytes as unknown as BodyInit), {
    headers: {
      'content-type': contentType,
      'content-length': String(bytes.byteLength),
      // Never let a browser guess another type than the one stored.
      'x-content-type-options': 'nosniff',
      ...(file.value.upload ? uploadHeaders(file.value.upload) : { 'cache-control': publicCaching(file.value) }),
    },
  });
}

/** Public files: a day, or a year for content-addressed ones (their URL changes with them). */
const publicCaching = (file: ServedFile) => (file.cacheForever ? 'public, max-age=31536000, immutable' : 'public, max-age=86400');

/** A user's upload: private caching, its name, and no script even if a browser renders it. */
function uploadHeaders(upload: NonNullable<ServedFile['upload']>): Record<string, string> {
  // `filename` for old clients (ASCII only), `filename*` (RFC 6266) with the real name.
  const ascii = upload.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return {
    'cache-control': 'private, max-age=86400, immutable',
    'content-disposition': `${upload.inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(upload.fileName)}`,
    'content-security-policy': "default-src 'none'; sandbox",
  };
}
