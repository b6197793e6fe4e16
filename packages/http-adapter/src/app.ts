import { ApiError, type Ctx, internalError, methodNotAllowed, notFound } from '@teamchat/core';
import { H3, type H3Event, HTTPError } from 'h3';
import { identify } from './auth.js';
import { ignoredParameters, readParams } from './params.js';
import { failure, success } from './respond.js';
import { serveFile, serveRedirect } from './files.js';
import { FILE_ROUTES, type Method, REDIRECT_ROUTES, ROUTES, type Route } from './routes.js';

export const API_PREFIX = '/api/v1';

export interface AppOptions {
  /** Called with unexpected exceptions (they reach the client only as a 500 without details). */
  onInternalError?: (error: unknown) => void;
}

/** The HTTP application: an h3 app serving the route table under /api/v1. */
export function createApp(ctx: Ctx, options: AppOptions = {}): H3 {
  const report = options.onInternalError ?? ((error) => console.error('teamchat: internal error', error));
  const app = new H3({
    onError: (error) => {
      // h3 rejects some requests itself before routing (a path that is not valid percent-encoding):
      // those are the client's fault, so they get a 4xx envelope rather than a 500.
      if (HTTPError.isError(error) && error.status >= 400 && error.status < 500) {
        return failure(new ApiError('BAD_REQUEST', 'Malformed URL', {}, error.status));
      }
      report(error);
      return failure(internalError());
    },
  });
  for (const route of ROUTES) {
    const path = API_PREFIX + routerPath(route.path);
    app.all(path, (event) => dispatch(ctx, route, event).catch((error) => (report(error), failure(internalError()))));
  }
  for (const route of FILE_ROUTES) {
    const path = routerPath(route.path);
    app.all(path, (event) => serveFile(ctx, route, event).catch((error) => (report(error), failure(internalError()))));
  }
  for (const route of REDIRECT_ROUTES) {
    app.all(routerPath(route.path), (event) => serveRedirect(ctx, route, event).catch((error) => (report(error), failure(internalError()))));
  }
  app.all('/**', () => failure(notFound()));
  return app;
}

/** The route table's placeholders in h3's syntax: `{name}` one segment, `{+name}` the rest of the path. */
function routerPath(path: string): string {
  return path.replace(/\{\+(\w+)\}/g, '**:$1').replace(/\{(\w+)\}/g, ':$1');
}

async function dispatch(ctx: Ctx, route: Route, event: H3Event): Promise<Response> {
  const request = event.req;
  const allowed = Object.keys(route.methods).sort();
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  if (method === 'OPTIONS') return new Response(null, { status: 204, headers: { allow: allowed.join(', ') } });
  const operation = route.methods[method as Method];
  if (!operation) return failure(methodNotAllowed(), { allowed_methods: allowed });

  // Routes that take files (POST /user_uploads) accept bodies as large as their files may be.
  const limit = Math.max(ctx.config.maxRequestBodyBytes, route.maxBodyBytes?.(ctx.config) ?? 0);
  const params = await readParams(request, queryString(request.url), limit);
  if (params.isErr()) return failure(params.error);
  const pathParams = (event.context.params ?? {}) as Record<string, string>;

  const caller = await identify(ctx, operation, request);
  if (caller.isErr()) return failure(caller.error);

  const input = { ...params.value, ...decodePath(pathParams) };
  const result = await operation(ctx, caller.value, input);
  if (result.isErr()) return failure(result.error);
  const declared = Object.keys(operation.params.schema ?? {});
  return success(result.value as object, ignoredParameters(params.value, declared));
}

/**
 * The query part of the request URL, cut out by hand: the URL is built from the Host header,
 * which may not parse (`host:99999`), and the query must not depend on it.
 */
function queryString(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return '';
  const end = url.indexOf('#', start);
  return url.slice(start + 1, end < 0 ? undefined : end);
}

function decodePath(params: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) out[name] = decodeURIComponent(value);
  return out;
}
