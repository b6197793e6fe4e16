/**
 * Signing in and out. The API key lives in sessionStorage: it survives a reload of the tab and
 * is gone when the tab closes, as "kept for the session" asks; nothing is written to disk
 * storage that outlives it.
 */
import { ApiError, type Client, ConnectionError, createClient } from '@teamchat/client';

export interface Session {
  email: string;
  apiKey: string;
  userId: number;
}

const STORAGE_KEY = 'teamchat.session';

/** The storage the session is kept in; tests pass a Map-backed one. */
export type SessionStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function loadSession(storage: SessionStorage): Session | undefined {
  try {
    const saved = JSON.parse(storage.getItem(STORAGE_KEY) ?? 'null') as Partial<Session> | null;
    if (typeof saved?.email === 'string' && typeof saved.apiKey === 'string' && typeof saved.userId === 'number') {
      return { email: saved.email, apiKey: saved.apiKey, userId: saved.userId };
    }
  } catch {
    // An unreadable entry is no session.
  }
  return undefined;
}

export function saveSession(storage: SessionStorage, session: Session): void {
  storage.setItem(STORAGE_KEY, JSON.stringify(session));
}

export function clearSession(storage: SessionStorage): void {
  storage.removeItem(STORAGE_KEY);
}

/** What the sign-in form says when signing in fails: one sentence a person can act on. */
export function signInErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    switch (error.code) {
      case 'USER_DEACTIVATED':
        return 'Your account has been deactivated. Ask an administrator of the organization to reactivate it.';
      case 'REALM_DEACTIVATED':
        return 'This organization has been deactivated.';
      case 'RATE_LIMIT_HIT': {
        const seconds = Math.ceil(error.retryAfter ?? 60);
        return `Too many sign-in attempts. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`;
      }
      case 'PASSWORD_AUTH_DISABLED':
        return 'Password sign-in is disabled for this organization.';
      default:
        if (error.status === 401 || error.status === 403 || error.code === 'AUTHENTICATION_FAILED') return 'Wrong email or password.';
        return error.msg;
    }
  }
  if (error instanceof ConnectionError) return 'Cannot reach the server. Check your connection and try again.';
  return 'Sign-in failed.';
}

/**
 * A fetch that never lets the browser show its own password dialog. The API answers a refused
 * login with 401 and `WWW-Authenticate: Basic`, on which browsers prompt (and a headless one
 * waits forever) for requests that carry credentials; with credentials mode "omit" they hand
 * the 401 to the page instead. The API key goes in our own Authorization header regardless.
 */
export function withoutBrowserPrompt(fetcher: typeof fetch = (input, init) => globalThis.fetch(input, init)): typeof fetch {
  return (input, init) => fetcher(new Request(input, { ...init, credentials: 'omit' }));
}

/** Exchanges email and password for the account's API key (POST /fetch_api_key). */
export async function signIn(serverUrl: string, email: string, password: string, fetcher?: typeof fetch): Promise<Session> {
  const anonymous = createClient({ url: serverUrl, fetch: withoutBrowserPrompt(fetcher) });
  const answer = await anonymous.fetchApiKey(email, password);
  return { email: answer.email, apiKey: answer.api_key, userId: answer.user_id };
}

/** The client of a signed-in session; `fetch` lets the caller watch every answer (the connection status does). */
export function sessionClient(serverUrl: string, session: Session, fetcher?: typeof fetch): Client {
  return createClient({ url: serverUrl, email: session.email, apiKey: session.apiKey, fetch: withoutBrowserPrompt(fetcher) });
}
