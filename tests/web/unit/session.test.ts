import { ApiError, ConnectionError } from '@teamchat/client';
import { describe, expect, it } from 'vitest';
import { clearSession, loadSession, saveSession, signIn, signInErrorMessage } from '../../../packages/web/src/session/auth';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
    items,
  };
}

describe('the session', () => {
  it('is saved, loaded and cleared', () => {
    const storage = memoryStorage();
    expect(loadSession(storage)).toBeUndefined();
    saveSession(storage, { email: 'a@example.com', apiKey: 'k', userId: 1 });
    expect(loadSession(storage)).toEqual({ email: 'a@example.com', apiKey: 'k', userId: 1 });
    clearSession(storage);
    expect(loadSession(storage)).toBeUndefined();
  });

  it('ignores a damaged entry', () => {
    const storage = memoryStorage();
    storage.setItem('teamchat.session', '{not json');
    expect(loadSession(storage)).toBeUndefined();
    storage.setItem('teamchat.session', '{"email":"a@example.com"}');
    expect(loadSession(storage)).toBeUndefined();
  });
});

describe('sign-in', () => {
  it('exchanges email and password for the key, without letting the browser prompt for a password', async () => {
    const seen: Request[] = [];
    const fetcher = async (input: RequestInfo | URL) => {
      seen.push(input as Request);
      return Response.json({ result: 'success', msg: '', api_key: 'key1', email: 'a@example.com', user_id: 7 });
    };
    await expect(signIn('http://chat.example', 'a@example.com', 'pw', fetcher as typeof fetch)).resolves.toEqual({ email: 'a@example.com', apiKey: 'key1', userId: 7 });
    expect(seen[0]!.url).toBe('http://chat.example/api/v1/fetch_api_key');
    expect(seen[0]!.credentials).toBe('omit');
    expect(await seen[0]!.text()).toBe('username=a%40example.com&password=pw');
  });

  it('says why it failed in words a person can act on', () => {
    expect(signInErrorMessage(new ApiError(401, { result: 'error', msg: 'Your username or password is incorrect', code: 'AUTHENTICATION_FAILED' }))).toBe('Wrong email or password.');
    expect(signInErrorMessage(new ApiError(401, { result: 'error', msg: 'Account is deactivated', code: 'USER_DEACTIVATED' }))).toMatch(/deactivated/);
    expect(signInErrorMessage(new ApiError(429, { result: 'error', msg: 'limit', code: 'RATE_LIMIT_HIT', 'retry-after': 12.3 }))).toBe(
      'Too many sign-in attempts. Try again in 13 seconds.',
    );
    expect(signInErrorMessage(new ApiError(429, { result: 'error', msg: 'limit', code: 'RATE_LIMIT_HIT', 'retry-after': 1 }))).toMatch(/in 1 second\.$/);
    expect(signInErrorMessage(new ApiError(400, { result: 'error', msg: 'Realm is deactivated', code: 'REALM_DEACTIVATED' }))).toMatch(/organization/);
    expect(signInErrorMessage(new ApiError(400, { result: 'error', msg: 'Something else', code: 'BAD_REQUEST' }))).toBe('Something else');
    expect(signInErrorMessage(new ConnectionError('down', 0))).toMatch(/Cannot reach the server/);
    expect(signInErrorMessage(new Error('x'))).toBe('Sign-in failed.');
  });
});
