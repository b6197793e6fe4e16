/** Request decoding and the response envelope, independent of any one endpoint. */
import { ROUTES } from '@teamchat/http-adapter';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import {
  authOf,
  call,
  closeServers,
  expectError,
  expectSuccess,
  form,
  multipart,
  rawRequest,
  startServer,
  type TestServer,
} from '../helpers/http.js';

afterEach(closeServers);

const LOGIN = { username: 'owner@example.com', password: 'owner-password' };
const nameOf = async (server: TestServer, id: number) =>
  expectSuccess(await call(server, 'GET', `/users/${id}`, { auth: server.world.owner })).user.full_name;

describe('where parameters come from', () => {
  it('POST: the body value wins over the query-string value, for urlencoded and multipart bodies', async () => {
    const server = await startServer();
    const query = { username: 'ghost@example.com', password: 'wrong' };
    expectSuccess(await call(server, 'POST', '/fetch_api_key', { query, body: form(LOGIN) }));
    expectSuccess(await call(server, 'POST', '/fetch_api_key', { query, body: multipart(LOGIN) }));
    // A name only in the query string is still read.
    expectSuccess(await call(server, 'POST', '/fetch_api_key', { query: { password: LOGIN.password }, body: form({ username: LOGIN.username }) }));
  });

  it('a repeated name takes its last value', async () => {
    const server = await startServer();
    const member = await server.world.addUser({ email: 'member@example.com' });
    const auth = server.world.owner;
    expectSuccess(await call(server, 'PATCH', `/users/${member.id}`, { auth, query: 'full_name=First+One&full_name=Second+One' }));
    expect(await nameOf(server, member.id)).toBe('Second One');
    expectSuccess(await call(server, 'PATCH', `/users/${member.id}`, { auth, body: new URLSearchParams('full_name=Third+One&full_name=Fourth+One') }));
    expect(await nameOf(server, member.id)).toBe('Fourth One');
  });

  it('decodes percent-encoding and + in urlencoded values, and UTF-8 in multipart values', async () => {
    const server = await startServer();
    const member = await server.world.addUser({ email: 'member@example.com' });
    const auth = server.world.owner;
    const body = 'full_name=Zo%C3%AB+M%C3%BCller+%26+Co';
    expectSuccess(
      await call(server, 'PATCH', `/users/${member.id}`, { auth, body, headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
    );
    expect(await nameOf(server, member.id)).toBe('Zoë Müller & Co');
    expectSuccess(await call(server, 'PATCH', `/users/${member.id}`, { auth, body: multipart({ full_name: '李小龍 🐉' }) }));
    expect(await nameOf(server, member.id)).toBe('李小龍 🐉');
  });

  it('ignores bodies that are not forms: application/json gives "Missing argument"', async () => {
    const server = await startServer();
    const json = { headers: { 'content-type': 'application/json' }, body: JSON.stringify(LOGIN) };
    expectError(await call(server, 'POST', '/fetch_api_key', json), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'username' argument", {
      var_name: 'username',
    });
    const text = { headers: { 'content-type': 'text/plain' }, body: new URLSearchParams(LOGIN).toString() };
    expectError(await call(server, 'POST', '/fetch_api_key', text), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'username' argument");
    const none = { body: new URLSearchParams(LOGIN).toString(), headers: { 'content-type': '' } };
    expectError(await call(server, 'POST', '/fetch_api_key', none), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'username' argument");

    const member = await server.world.addUser({ email: 'member@example.com', fullName: 'Kept Name' });
    const patch = await call(server, 'PATCH', `/users/${member.id}`, {
      auth: server.world.owner,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ full_name: 'Changed' }),
    });
    expectSuccess(patch);
    expect(await nameOf(server, member.id)).toBe('Kept Name');
  });

  it('accepts content types with parameters and any letter case', async () => {
    const server = await startServer();
    const body = new URLSearchParams(LOGIN).toString();
    for (const type of ['application/x-www-form-urlencoded; charset=UTF-8', 'Application/X-WWW-Form-Urlencoded']) {
      expectSuccess(await call(server, 'POST', '/fetch_api_key', { body, headers: { 'content-type': type } }));
    }
  });

  it('multipart: file parts for text parameters are a type error, not a crash', async () => {
    const server = await startServer();
    const body = multipart({ username: new Blob(['owner@example.com'], { type: 'text/plain' }), password: 'owner-password' });
    expectError(await call(server, 'POST', '/fetch_api_key', { body }), 400, 'BAD_REQUEST', 'username is not a string');
  });
});

describe('ignored_parameters_unsupported', () => {
  it('lists unknown names from body and query once each, sorted by code point, without `client`', async () => {
    const server = await startServer();
    const body = multipart({ ...LOGIN, zulu: '1', Bravo: '2', client: 'website', _under: '3' });
    const response = await call(server, 'POST', '/fetch_api_key', { body, query: { alpha: '1', zulu: '2', client: 'x' } });
    expect(expectSuccess(response).ignored_parameters_unsupported).toEqual(['Bravo', '_under', 'alpha', 'zulu']);
  });

  it('is absent when every parameter is known, and never lists path parameters', async () => {
    const server = await startServer();
    const member = await server.world.addUser({ email: 'member@example.com' });
    const auth = server.world.owner;
    const clean = expectSuccess(await call(server, 'GET', `/users/${member.id}`, { auth, query: { client_gravatar: 'false', client: 'x' } }));
    expect(clean).not.toHaveProperty('ignored_parameters_unsupported');
    const patched = expectSuccess(await call(server, 'PATCH', `/users/${member.id}`, { auth, body: form({ full_name: 'Full Name', nickname: 'n' }) }));
    expect(patched.ignored_parameters_unsupported).toEqual(['nickname']);
  });

  it('is never on an error', async () => {
    const server = await startServer();
    const response = await call(server, 'POST', '/fetch_api_key', { body: form({ ...LOGIN, password: 'wrong', extra: '1' }) });
    expectError(response, 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');
    const unauthenticated = await call(server, 'GET', '/users/me', { query: { extra: '1' } });
    expectError(unauthenticated, 401, 'UNAUTHORIZED', /^Not logged in/);
  });
});

describe('routing', () => {
  it('unknown paths: 404 JSON envelope', async () => {
    const server = await startServer();
    for (const [method, path] of [
      ['GET', '/api/v1/nonexistent'],
      ['POST', '/api/v1/users/me/nothing'],
      ['GET', '/api/v2/users'],
      ['GET', '/'],
      ['DELETE', '/json/users'],
    ] as const) {
      const response = await rawRequest(server, { method, path, headers: { authorization: authOf(server.world.owner) } });
      expectError(response, 404, 'NOT_FOUND', 'Not found');
    }
  });

  it('a method the route lacks: 405 with sorted allowed_methods and no code, before authentication', async () => {
    const server = await startServer();
    const cases: [string, string, string[]][] = [
      ['PUT', '/users', ['GET', 'POST']],
      ['DELETE', '/users', ['GET', 'POST']],
      ['POST', '/server_settings', ['GET']],
      ['PATCH', '/users/me', ['GET']],
      ['POST', '/users/1', ['DELETE', 'GET', 'PATCH']],
      ['DELETE', '/users/me/api_key/regenerate', ['POST']],
    ];
    for (const [method, path, allowed] of cases) {
      const response = await call(server, method, path);
      expect(response.status, `${method} ${path}`).toBe(405);
      expect(response.body).toEqual({ result: 'error', msg: 'Method Not Allowed', allowed_methods: allowed });
      expect(response.headers.get('www-authenticate')).toBeNull();
    }
  });

  it('OPTIONS on every route: 204, empty body, Allow with the sorted methods', async () => {
    const server = await startServer();
    for (const route of ROUTES) {
      const path = route.path.replace('{user_id}', '1');
      const response = await call(server, 'OPTIONS', path);
      expect(response.status, path).toBe(204);
      expect(response.text).toBe('');
      expect(response.headers.get('allow')).toBe(Object.keys(route.methods).sort().join(', '));
    }
  });

  it('HEAD is served by the GET handler, with its status and headers and no body', async () => {
    const server = await startServer();
    const ok = await call(server, 'HEAD', '/users/me', { auth: server.world.owner });
    expect(ok.status).toBe(200);
    expect(ok.text).toBe('');
    expect(ok.headers.get('content-type')).toBe('application/json');
    const denied = await call(server, 'HEAD', '/users/me');
    expect(denied.status).toBe(401);
    expect(denied.text).toBe('');
    expect(denied.headers.get('www-authenticate')).toBe('Basic realm="zulip"');
    const missing = await call(server, 'HEAD', '/users/999', { auth: server.world.owner });
    expect(missing.status).toBe(400);
    expect((await call(server, 'HEAD', '/fetch_api_key')).status).toBe(405);
  });
});

describe('response envelope', () => {
  it('is JSON with a trailing newline, application/json and no-cache, on success and error alike', async () => {
    const server = await startServer();
    for (const response of [
      await call(server, 'GET', '/server_settings'),
      await call(server, 'GET', '/users/me'),
      await call(server, 'GET', '/nope'),
      await call(server, 'PUT', '/users'),
    ]) {
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.headers.get('cache-control')).toContain('no-cache');
      expect(response.text.endsWith('}\n')).toBe(true);
      expect(response.text.slice(0, -1)).toBe(JSON.stringify(JSON.parse(response.text)));
    }
    const success = await call(server, 'GET', '/server_settings');
    expect(success.text.startsWith('{"result":"success","msg":""')).toBe(true);
    const error = await call(server, 'GET', '/users/me');
    expect(error.body).toEqual({ result: 'error', msg: 'Not logged in: API authentication or user session required', code: 'UNAUTHORIZED' });
  });
});

describe('request body limits', () => {
  const small = () => makeWorld({ config: { maxRequestBodyBytes: 1000 } });

  it('a body over the limit: 413 envelope, whether or not Content-Length announces it', async () => {
    const server = await startServer(await small());
    const big = { ...LOGIN, padding: 'x'.repeat(5000) };
    for (const body of [form(big), multipart(big)]) {
      const response = await call(server, 'POST', '/fetch_api_key', { body });
      expectError(response, 413, 'PAYLOAD_TOO_LARGE', 'Request body is too large (limit: 1000 bytes)');
    }
    const encoded = new TextEncoder().encode(form(big).toString());
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < encoded.length; i += 500) controller.enqueue(encoded.slice(i, i + 500));
        controller.close();
      },
    });
    const response = await fetch(server.api('/fetch_api_key'), {
      method: 'POST',
      body: stream,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ result: 'error', code: 'PAYLOAD_TOO_LARGE' });
    // The server still answers afterwards.
    expectSuccess(await call(server, 'POST', '/fetch_api_key', { body: form(LOGIN) }));
  });

  it('a body within the limit is read', async () => {
    const server = await startServer(await small());
    const body = form({ ...LOGIN, padding: 'x'.repeat(900) });
    expect(body.toString().length).toBeLessThanOrEqual(1000);
    expectSuccess(await call(server, 'POST', '/fetch_api_key', { body }));
  });
});

describe('malformed bodies', () => {
  it('malformed multipart: 400', async () => {
    const server = await startServer();
    for (const [type, body] of [
      ['multipart/form-data; boundary=xyz', 'this is not multipart at all'],
      ['multipart/form-data', '--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--xyz--\r\n'],
      ['multipart/form-data; boundary=xyz', '--xyz\r\nContent-Disposition: form-data; name="username"\r\n\r\nunterminated'],
    ] as const) {
      const response = await call(server, 'POST', '/fetch_api_key', { body, headers: { 'content-type': type } });
      expectError(response, 400, 'BAD_REQUEST', 'Malformed multipart request body');
    }
  });

  it('an empty form body counts as no parameters', async () => {
    const server = await startServer();
    const response = await call(server, 'POST', '/fetch_api_key', { body: '', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expectError(response, 400, 'REQUEST_VARIABLE_MISSING', "Missing 'username' argument");
  });
});
