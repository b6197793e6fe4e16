/**
 * Files served outside /api/v1 (custom emoji images): GET or HEAD only, no credentials (pages
 * load them through `<img>`), the realm taken from the Host header. Errors keep the JSON envelope.
 */
import { type Ctx, methodNotAllowed, resolveRealm } from '@teamchat/core';
import type { H3Event } from 'h3';
import { failure } from './respond.js';
import type { FileRoute } from './routes.js';

export async function serveFile(ctx: Ctx, route: FileRoute, event: H3Event): Promise<Response> {
  const method = event.req.method;
  if (method !== 'GET' && method !== 'HEAD') return failure(methodNotAllowed(), { allowed_methods: ['GET'] });
  const realm = await resolveRealm(ctx, event.req.headers.get('host'));
  if (realm.isErr()) return failure(realm.error);
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries((event.context.params ?? {}) as Record<string, string>)) params[name] = decodeURIComponent(value);
  const file = await route.operation(ctx, { realm: realm.value, user: null }, params);
  if (file.isErr()) return failure(file.error);
  const { contentType, bytes } = file.value;
  return new Response(method === 'HEAD' ? null : (bytes as unknown as BodyInit), {
    headers: {
      'content-type': contentType,
      'content-length': String(bytes.byteLength),
      // The type was recognised from the bytes; never let a browser guess another.
      'x-content-type-options': 'nosniff',
      'cache-control': 'public, max-age=86400',
    },
  });
}
