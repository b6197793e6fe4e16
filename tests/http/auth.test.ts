/** Basic authentication (FACTS.md 3.2), POST /fetch_api_key and POST /users/me/api_key/regenerate. */
import { createUserAsOperator, updateRealmAsOperator } from '@teamchat/core';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import {
  basicAuth,
  call,
  closeServers,
  expectError,
  expectSuccess,
  form,
  multipart,
  startServer,
} from '../helpers/http.js';

afterEach(closeServers);

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const NOT_LOGGED_IN = 'Not logged in: API authentication or user session required';

describe('Basic authentication on an authenticated endpoint', () => {
  it('accepts the delivery email and API key, case-insensitive scheme, extra whitespace', async () => {
    const server = await startServer();
    const { owner } = server.world;
    for (const auth of [
      basicAuth(owner.deliveryEmail, owner.apiKey),
      `basic ${b64(`${owner.deliveryEmail}:${owner.apiKey}`)}`,
      `BASIC   ${b64(`${owner.deliveryEmail}:${owner.apiKey}`)}`,
      basicAuth(` ${owner.deliveryEmail} `, ` ${owner.apiKey} `),
      basicAuth(owner.deliveryEmail.toUpperCase(), owner.apiKey),
    ]) {
      const body = expectSuccess(await call(server, 'GET', '/users/me', { auth }));
      expect(body.user_id).toBe(owner.id);
    }
  });

  it('without credentials: 401 UNAUTHORIZED with WWW-Authenticate', async () => {
    const server = await startServer();
    expectError(await call(server, 'GET', '/users/me'), 401, 'UNAUTHORIZED', NOT_LOGGED_IN);
    expectError(await call(server, 'GET', '/users/me', { auth: '' }), 401, 'UNAUTHORIZED', NOT_LOGGED_IN);
  });

  it('a scheme other than Basic: 400 BAD_REQUEST', async () => {
    const server = await startServer();
    for (const auth of ['Bearer abcdef', 'Digest xyz', `Token ${b64('a@b.c:k')}`]) {
      expectError(
        await call(server, 'GET', '/users/me', { auth }),
        400,
        'BAD_REQUEST',
        'This endpoint requires HTTP basic authentication.',
      );
    }
  });

  it('an undecodable header: 401 "Invalid authorization header for basic auth"', async () => {
    const server = await startServer();
    const { owner } = server.world;
    for (const auth of [
      'Basic !!!!',
      'Basic',
      `Basic ${b64('a@b.c:key')} extra`,
      'Bearer',
      `Basic ${b64('no-colon-at-all')}`,
      `Basic ${b64(`${owner.deliveryEmail}:${owner.apiKey}:more`)}`,
      `Basic ${Buffer.from([0x61, 0x3a, 0xff, 0xfe]).toString('base64')}`,
    ]) {
      expectError(
        await call(server, 'GET', '/users/me', { auth }),
        401,
        'UNAUTHORIZED',
        'Invalid authorization header for basic auth',
      );
    }
  });

  it('a key that is not 32 alphanumerics: 401 "Malformed API key"', async () => {
    const server = await startServer();
    const email = server.world.owner.deliveryEmail;
    for (const key of ['', 'short', 'x'.repeat(33), `${'a'.repeat(31)}-`]) {
      expectError(await call(server, 'GET', '/users/me', { auth: basicAuth(email, key) }), 401, 'UNAUTHORIZED', 'Malformed API key');
    }
  });

  it('an unknown key or a key of another user: 401 "Invalid API key"', async () => {
    const server = await startServer();
    const { owner } = server.world;
    const other = await server.world.addUser({ email: 'member@example.com' });
    expectError(
      await call(server, 'GET', '/users/me', { auth: basicAuth(owner.deliveryEmail, 'A'.repeat(32)) }),
      401,
      'UNAUTHORIZED',
      'Invalid API key',
    );
    expectError(
      await call(server, 'GET', '/users/me', { auth: basicAuth(owner.deliveryEmail, other.apiKey) }),
      401,
      'UNAUTHORIZED',
      'Invalid API key',
    );
    expectError(
      await call(server, 'GET', '/users/me', { auth: basicAuth('nobody@example.com', owner.apiKey) }),
      401,
      'UNAUTHORIZED',
      'Invalid API key',
    );
  });

  it('a deactivated user: 401 "Account is deactivated"', async () => {
    const server = await startServer();
    const member = await server.world.addUser({ email: 'member@example.com' });
    expectSuccess(await call(server, 'DELETE', `/users/${member.id}`, { auth: server.world.owner }));
    expectError(await call(server, 'GET', '/users/me', { auth: member }), 401, 'UNAUTHORIZED', 'Account is deactivated');
  });

  it('a header accepted before is checked again on every request (its decoding is kept, not its verdict)', async () => {
    const server = await startServer();
    const member = await server.world.addUser({ email: 'member@example.com' });
    const auth = basicAuth(member.deliveryEmail, member.apiKey);
    for (let i = 0; i < 2; i++) expect(expectSuccess(await call(server, 'GET', '/users/me', { auth })).user_id).toBe(member.id);
    expectSuccess(await call(server, 'DELETE', `/users/${member.id}`, { auth: server.world.owner }));
    expectError(await call(server, 'GET', '/users/me', { auth }), 401, 'UNAUTHORIZED', 'Account is deactivated');
    expectSuccess(await call(server, 'POST', `/users/${member.id}/reactivate`, { auth: server.world.owner }));
    expectSuccess(await call(server, 'GET', '/users/me', { auth }));
    const regenerated = expectSuccess(await call(server, 'POST', '/users/me/api_key/regenerate', { auth, body: multipart({}) }));
    expectError(await call(server, 'GET', '/users/me', { auth }), 401, 'UNAUTHORIZED', 'Invalid API key');
    expectSuccess(await call(server, 'GET', '/users/me', { auth: basicAuth(member.deliveryEmail, regenerated.api_key as string) }));
    // A refused header gets the same answer each time it comes.
    const broken = `Basic ${b64('no-colon-here')}`;
    for (let i = 0; i < 2; i++) expectError(await call(server, 'GET', '/users/me', { auth: broken }), 401, 'UNAUTHORIZED', 'Invalid authorization header for basic auth');
  });

  it('a deactivated realm: 401 "This organization has been deactivated"', async () => {
    const world = await makeWorld();
    must(await updateRealmAsOperator(world.ctx, world.realm, { deactivated: true }));
    const server = await startServer(world);
    expectError(
      await call(server, 'GET', '/users/me', { auth: world.owner }),
      401,
      'UNAUTHORIZED',
      'This organization has been deactivated',
    );
  });
});

describe('POST /fetch_api_key', () => {
  it('answers 429 with a Retry-After header after 5 failed logins for one email', async () => {
    const server = await startServer();
    const wrong = form({ username: 'owner@example.com', password: 'not-the-password' });
    for (let i = 0; i < 5; i++) expectError(await call(server, 'POST', '/fetch_api_key', { body: wrong }), 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');
    const limited = await call(server, 'POST', '/fetch_api_key', { body: form({ username: 'owner@example.com', password: 'owner-password' }) });
    expectError(limited, 429, 'RATE_LIMIT_HIT', 'API usage exceeded rate limit');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(1790);
    expect(limited.body['retry-after']).toBeGreaterThan(1790);
  });

  it('returns api_key, email and user_id for a urlencoded or multipart login', async () => {
    const server = await startServer();
    const { owner } = server.world;
    const credentials = { username: 'owner@example.com', password: 'owner-password' };
    for (const body of [form(credentials), multipart(credentials)]) {
      const result = expectSuccess(await call(server, 'POST', '/fetch_api_key', { body }));
      expect(result).toEqual({ result: 'success', msg: '', api_key: owner.apiKey, email: owner.deliveryEmail, user_id: owner.id });
    }
    const key = expectSuccess(await call(server, 'POST', '/fetch_api_key', { body: form(credentials) })).api_key;
    expectSuccess(await call(server, 'GET', '/users/me', { auth: basicAuth('owner@example.com', key) }));
  });

  it('ignores any Authorization header, even a broken one', async () => {
    const server = await startServer();
    for (const auth of ['Bearer x', 'Basic !!!', basicAuth('x@example.com', 'A'.repeat(32))]) {
      const body = form({ username: 'owner@example.com', password: 'owner-password' });
      expectSuccess(await call(server, 'POST', '/fetch_api_key', { auth, body }));
    }
  });

  it('wrong password or unknown user: 401 AUTHENTICATION_FAILED', async () => {
    const server = await startServer();
    for (const credentials of [
      { username: 'owner@example.com', password: 'wrong-password' },
      { username: 'ghost@example.com', password: 'owner-password' },
    ]) {
      expectError(
        await call(server, 'POST', '/fetch_api_key', { body: form(credentials) }),
        401,
        'AUTHENTICATION_FAILED',
        'Your username or password is incorrect',
      );
    }
  });

  it('a missing field: 400 REQUEST_VARIABLE_MISSING with var_name', async () => {
    const server = await startServer();
    expectError(
      await call(server, 'POST', '/fetch_api_key', { body: form({ password: 'x' }) }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'username' argument",
      { var_name: 'username' },
    );
    expectError(
      await call(server, 'POST', '/fetch_api_key', { body: multipart({ username: 'owner@example.com' }) }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'password' argument",
      { var_name: 'password' },
    );
  });

  it('a username that is not an email: 400 BAD_REQUEST', async () => {
    const server = await startServer();
    expectError(
      await call(server, 'POST', '/fetch_api_key', { body: form({ username: 'not an email', password: 'x' }) }),
      400,
      'BAD_REQUEST',
      'Enter a valid email address.',
    );
  });

  it('a deactivated user: 401 USER_DEACTIVATED; password auth off: 401 PASSWORD_AUTH_DISABLED', async () => {
    const world = await makeWorld();
    const member = await world.addUser({ email: 'member@example.com', password: 'member-password' });
    const server = await startServer(world);
    expectSuccess(await call(server, 'DELETE', `/users/${member.id}`, { auth: world.owner }));
    expectError(
      await call(server, 'POST', '/fetch_api_key', { body: form({ username: 'member@example.com', password: 'member-password' }) }),
      401,
      'USER_DEACTIVATED',
      'Account is deactivated',
    );
    must(await updateRealmAsOperator(world.ctx, world.realm, { emailAuthEnabled: false }));
    expectError(
      await call(server, 'POST', '/fetch_api_key', { body: form({ username: 'owner@example.com', password: 'owner-password' }) }),
      401,
      'PASSWORD_AUTH_DISABLED',
      'Password authentication is disabled in this organization',
    );
  });

  it('is POST only: GET gives 405 with allowed_methods', async () => {
    const server = await startServer();
    const response = await call(server, 'GET', '/fetch_api_key', { query: { username: 'owner@example.com', password: 'owner-password' } });
    expect(response.status).toBe(405);
    expect(response.body).toEqual({ result: 'error', msg: 'Method Not Allowed', allowed_methods: ['POST'] });
  });

  it('moves date_joined of an account created through the API to its first login (FL 475)', async () => {
    let now = Date.parse('2025-01-01T00:00:00Z');
    const world = await makeWorld({ clock: { now: () => now } });
    const server = await startServer(world);
    const created = expectSuccess(
      await call(server, 'POST', '/users', {
        auth: world.owner,
        body: form({ email: 'late@example.com', password: 'late-password', full_name: 'Late Comer' }),
      }),
    );
    const before = expectSuccess(await call(server, 'GET', `/users/${created.user_id}`, { auth: world.owner }));
    expect(before.user.date_joined).toBe('2025-01-01T00:00:00.000000+00:00');
    now = Date.parse('2025-02-03T04:05:06Z');
    expectSuccess(await call(server, 'POST', '/fetch_api_key', { body: form({ username: 'late@example.com', password: 'late-password' }) }));
    const after = expectSuccess(await call(server, 'GET', `/users/${created.user_id}`, { auth: world.owner }));
    expect(after.user.date_joined).toBe('2025-02-03T04:05:06.000000+00:00');
  });
});

describe('POST /users/me/api_key/regenerate', () => {
  it('returns a new 32-character key; the old key stops working', async () => {
    const server = await startServer();
    const { owner } = server.world;
    const body = expectSuccess(await call(server, 'POST', '/users/me/api_key/regenerate', { auth: owner, body: multipart({}) }));
    expect(body.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(body.api_key).not.toBe(owner.apiKey);
    expectError(await call(server, 'GET', '/users/me', { auth: owner }), 401, 'UNAUTHORIZED', 'Invalid API key');
    expectSuccess(await call(server, 'GET', '/users/me', { auth: basicAuth(owner.deliveryEmail, body.api_key) }));
    const fetched = expectSuccess(
      await call(server, 'POST', '/fetch_api_key', { body: form({ username: 'owner@example.com', password: 'owner-password' }) }),
    );
    expect(fetched.api_key).toBe(body.api_key);
  });

  it('needs authentication and refuses bots', async () => {
    const world = await makeWorld();
    const bot = must(
      await createUserAsOperator(world.ctx, world.realm, { email: 'bot@example.com', fullName: 'Bot', bot: true, botOwnerId: world.owner.id }),
    );
    const server = await startServer(world);
    expectError(await call(server, 'POST', '/users/me/api_key/regenerate'), 401, 'UNAUTHORIZED', NOT_LOGGED_IN);
    expectError(
      await call(server, 'POST', '/users/me/api_key/regenerate', { auth: bot }),
      400,
      'BAD_REQUEST',
      'This endpoint does not accept bot requests.',
    );
  });

  it('is POST only', async () => {
    const server = await startServer();
    const response = await call(server, 'GET', '/users/me/api_key/regenerate', { auth: server.world.owner });
    expect(response.status).toBe(405);
    expect(response.body).toEqual({ result: 'error', msg: 'Method Not Allowed', allowed_methods: ['POST'] });
  });
});
