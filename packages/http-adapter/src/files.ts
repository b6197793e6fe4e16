/**
 * Files served outside /api/v1: GET or HEAD only, the realm taken from the Host header, errors
 * in the JSON envelope. Public files (custom emoji images, which pages load through `<img>`)
 * need no credentials; users' uploads need the same Basic credentials as the API, and are
 * served privately, inline only for types that cannot run script in the server's origin.
 * Avatars (credentials, or none in a realm open to spectators) are cached for good, their URLs
 * changing with each version; /avatar/{…} answers with a redirect to the current one.
 */
import { type Ctx, methodNotAllowed, type ServedFile } from '@teamchat/core';
import type { H3Event } from 'h3';
import { identify } from './auth.js';
import { failure } from './respond.js';
import type { FileRoute, RedirectRoute } from './routes.js';

/** Runs a GET-only route's operation with the caller and the path's parameters. */
async function runGet<R>(ctx: Ctx, route: FileRoute | RedirectRoute, event: H3Event): Promise<Response | R> {
  const method = event.req.method;
  if (method !== 'GET' && method !== 'HEAD') return failure(methodNotAllowed(), { allowed_methods: ['GET'] });
  const caller = await identify(ctx, route.operation, event.req);
  if (caller.isErr()) return failure(caller.error);
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries((event.context.params ?? {}) as Record<string, string>)) params[name] = decodeURIComponent(value);
  const result = await route.operation.fromTransport(ctx, caller.value, params);
  return result.isErr() ? failure(result.error) : (result.value as R);
}

/**
 * A redirect route: 302 to the operation's location with the request's query string appended,
 * as the reference passes on what the client asked of the image (`?s=50`).
 */
export async function serveRedirect(ctx: Ctx, route: RedirectRoute, event: H3Event): Promise<Response> {
  const target = await runGet<{ location: string }>(ctx, route, event);
  if (target instanceof Response) return target;
  const url = event.req.url;
  const query = url.includes('?') ? url.slice(url.indexOf('?') + 1).split('#')[0]! : '';
  const location = query === '' ? target.location : `${target.location}${target.location.includes('?') ? '&' : '?'}${query}`;
  return new Response(null, { status: 302, headers: { location, 'cache-control': 'private, no-cache' } });
}

export async function serveFile(ctx: Ctx, route: FileRoute, event: H3Event): Promise<Response> {
  const method = event.req.method;
  const file = await runGet<ServedFile>(ctx, route, event);
  if (file instanceof Response) return file;
  const { contentType, bytes } = file;
  return new Response(method === 'HEAD' ? null : (bytes as unknown as BodyInit), {
    headers: {
      'content-type': contentType,
      'content-length': String(bytes.byteLength),
      // Never let a browser guess another type than the one stored.
      'x-content-type-options': 'nosniff',
      'cache-control': cacheControl(file),
      ...(file.upload ? uploadHeaders(file.upload) : {}),
    },
  });
}

/**
 * Files whose URL changes with their content are kept a year: privately for avatars (reading
 * them may need credentials), publicly for content-addressed public files. Other public files a
 * day. A user's upload sets its own (uploadHeaders).
 */
function cacheControl(file: ServedFile): string {
  if (file.versioned) return 'private, max-age=31536000, immutable';
  return file.cacheForever ? 'public, max-age=31536000, immutable' : 'public, max-age=86400';
}

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
