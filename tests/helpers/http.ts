/**
 * End-to-end HTTP helpers: the real adapter on an ephemeral port, requests through `fetch`
 * (or raw `node:http` where fetch cannot express the request, such as a custom Host header).
 *
 * Every response read through `call` or `rawRequest` is checked for the properties all API
 * responses share: never a 500, and every body is JSON with a trailing newline.
 */
import { request as httpRequest } from 'node:http';
import type { User } from '@teamchat/core';
import { type RunningServer, type ServeOptions, serve } from '@teamchat/http-adapter';
import { expect } from 'vitest';
import { makeWorld, type World } from './core.js';

export interface TestServer extends RunningServer {
  world: World;
  /** Absolute URL of an API path: `api('/users')` → `http://127.0.0.1:port/api/v1/users`. */
  api(path: string): string;
}

const running: RunningServer[] = [];

/** Serves `world` (a fresh one by default) on an ephemeral port; `closeServers` stops it. */
export async function startServer(world?: World, options: ServeOptions = {}): Promise<TestServer> {
  const w = world ?? (await makeWorld());
  const server = await serve(w.ctx, { port: 0, onInternalError: () => undefined, ...options });
  running.push(server);
  return { ...server, world: w, api: (path) => `${server.url}/api/v1${path}` };
}

/** Closes every server started by this file's tests; use as `afterEach(closeServers)`. */
export async function closeServers(): Promise<void> {
  await Promise.all(running.splice(0).map((server) => server.close()));
}

/** The value of an `Authorization` header for Basic credentials. */
export function basicAuth(email: string, apiKey: string): string {
  return `Basic ${Buffer.from(`${email}:${apiKey}`, 'utf8').toString('base64')}`;
}

/** Basic credentials of a user as stored now (delivery email and API key). */
export const authOf = (user: Pick<User, 'deliveryEmail' | 'apiKey'>) => basicAuth(user.deliveryEmail, user.apiKey);

export type FormValues = Record<string, string>;

/** An `application/x-www-form-urlencoded` body. */
export const form = (values: FormValues) => new URLSearchParams(values);

/** A `multipart/form-data` body, as zulip-js sends every POST. */
export function multipart(values: Record<string, string | Blob>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(values)) data.append(name, value);
  return data;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field in the tests.
  body: any;
}

export interface CallOptions {
  /** A user (sends their Basic credentials) or a literal Authorization header value. */
  auth?: Pick<User, 'deliveryEmail' | 'apiKey'> | string;
  query?: FormValues | string;
  body?: BodyInit;
  headers?: Record<string, string>;
}

/** Sends a request to an API path with fetch and reads the whole response. */
export async function call(server: TestServer, method: string, path: string, options: CallOptions = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.auth !== undefined) {
    headers.authorization = typeof options.auth === 'string' ? options.auth : authOf(options.auth);
  }
  const query = options.query === undefined ? '' : `?${new URLSearchParams(options.query)}`;
  const response = await fetch(server.api(path) + query, { method, headers, body: options.body });
  const text = await response.text();
  return checked(method, { status: response.status, headers: response.headers, text, body: parse(text) });
}

export interface RawRequest {
  method?: string;
  /** The request target exactly as sent, for example `/api/v1/users/%zz`. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** Sends bytes exactly as given over node:http (custom Host header, malformed targets and bodies). */
export function rawRequest(server: TestServer, raw: RawRequest): Promise<ApiResponse> {
  const { port } = new URL(server.url);
  const method = raw.method ?? 'GET';
  const headers = { ...raw.headers };
  // node:http sends a GET or DELETE body without framing unless told its length.
  if (raw.body !== undefined) headers['content-length'] ??= String(Buffer.byteLength(raw.body));
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: Number(port), method, path: raw.path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          try {
            resolve(checked(method, { status: res.statusCode ?? 0, headers, text, body: parse(text) }));
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    req.on('error', reject);
    req.end(raw.body);
  });
}

/** A request to the realm served at `host` (sent as the Host header). */
export function callHost(
  server: TestServer,
  host: string,
  method: string,
  path: string,
  options: { auth?: CallOptions['auth']; form?: FormValues } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { host };
  if (options.auth !== undefined) {
    headers.authorization = typeof options.auth === 'string' ? options.auth : authOf(options.auth);
  }
  let body: string | undefined;
  if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = form(options.form).toString();
  }
  return rawRequest(server, { method, path: `/api/v1${path}`, headers, body });
}

function parse(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The properties every API response has, whatever the input. */
function checked(method: string, response: ApiResponse): ApiResponse {
  const label = `${method} → ${response.status} ${response.text.slice(0, 300)}`;
  expect(response.status, label).toBeLessThan(500);
  if (response.status !== 204 && method !== 'HEAD') {
    expect(response.headers.get('content-type'), label).toBe('application/json');
    expect(response.text.endsWith('}\n'), response.text).toBe(true);
    expect(response.body, response.text).toBeTypeOf('object');
    expect(response.body.result).toMatch(/^(success|error)$/);
    expect(response.body.msg).toBeTypeOf('string');
  }
  return response;
}

/** Asserts a success envelope and returns its body. */
// biome-ignore lint/suspicious/noExplicitAny: see ApiResponse.body.
export function expectSuccess(response: ApiResponse): any {
  expect(response.status, response.text).toBe(200);
  expect(response.body).toMatchObject({ result: 'success', msg: '' });
  expect(response.body).not.toHaveProperty('code');
  return response.body;
}

/** Asserts an error envelope: status, code, message, extra fields; never ignored parameters. */
export function expectError(
  response: ApiResponse,
  status: number,
  code: string,
  msg: string | RegExp,
  extra: Record<string, unknown> = {},
): void {
  expect(response.status, response.text).toBe(status);
  expect(response.body).toMatchObject({ result: 'error', code, ...extra });
  if (typeof msg === 'string') expect(response.body.msg).toBe(msg);
  else expect(response.body.msg).toMatch(msg);
  expect(response.body).not.toHaveProperty('ignored_parameters_unsupported');
  if (status === 401) expect(response.headers.get('www-authenticate')).toBe('Basic realm="zulip"');
  else expect(response.headers.get('www-authenticate')).toBeNull();
}
