/**
 * Probes for process supervisors and load balancers, outside /api/v1 and without credentials:
 * `GET /health` says the process answers (liveness), `GET /ready` that it can serve requests
 * (its database answers and is migrated). Their bodies are plain JSON, not the API's envelope,
 * and say nothing a stranger could use beyond that.
 */
import type { Ctx } from '@teamchat/core';
import type { H3 } from 'h3';
// Until core's index exports it (index.ts belongs to another change), the check comes from its source file.
import { checkReadiness } from '@teamchat/core';
import { fastResponse } from './respond.js';
import { noteRoute } from './request-record.js';

type Probe = (ctx: Ctx) => Promise<{ status: number; body: { status: string; reason?: string } }>;

const HEADERS = { 'content-type': 'application/json', 'cache-control': 'no-store' };

/** The probes' table: path and what it answers. */
export const HEALTH_ROUTES: readonly { path: string; probe: Probe }[] = [
  { path: '/health', probe: async () => ({ status: 200, body: { status: 'ok' } }) },
  {
    path: '/ready',
    probe: async (ctx) => {
      const readiness = await checkReadiness(ctx.storage);
      return readiness.ready ? { status: 200, body: { status: 'ok' } } : { status: 503, body: { status: 'unavailable', reason: readiness.reason } };
    },
  },
];

/** Adds the probes to `app`: GET and HEAD answer, other methods get 405 with `allow`. */
export function addHealthRoutes(app: H3, ctx: Ctx): void {
  for (const { path, probe } of HEALTH_ROUTES) {
    app.all(path, async (event) => {
      noteRoute(event.req, path);
      const method = event.req.method;
      if (method !== 'GET' && method !== 'HEAD') {
        return fastResponse(`${JSON.stringify({ status: 'error', reason: 'method not allowed' })}\n`, {
          status: 405,
          headers: { ...HEADERS, allow: 'GET, HEAD' },
        });
      }
      const { status, body } = await probe(ctx);
      return fastResponse(method === 'HEAD' ? null : `${JSON.stringify(body)}\n`, { status, headers: HEADERS });
    });
  }
}
