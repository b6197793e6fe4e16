/**
 * Shared setup of the acceptance-audit tests (tests/http/audit-*.test.ts): one realm with a user
 * of every role, a second realm on the same server (for "another realm's ID" cases), and helpers
 * to register a queue and read what it received.
 */
import { type Caller, createRealm, type User } from '@teamchat/core';
import { expect } from 'vitest';
import { makeWorld, must, type World } from './core.js';
import { type ApiResponse, call, expectSuccess, form, type TestServer, startServer } from './http.js';

export interface AuditWorld {
  world: World;
  server: TestServer;
  owner: User;
  admin: User;
  moderator: User;
  member: User;
  guest: User;
  /** The second realm's owner, acting through core (its Host is not served by `call`). */
  other: Caller & { user: User };
}

export async function auditWorld(options: Parameters<typeof makeWorld>[0] = {}): Promise<AuditWorld> {
  const world = await makeWorld({ config: { timers: false }, ...options });
  const admin = await world.addUser({ email: 'ada@example.com', fullName: 'Ada Admin', role: 200 });
  const moderator = await world.addUser({ email: 'mo@example.com', fullName: 'Mo Moderator', role: 300 });
  const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
  const guest = await world.addUser({ email: 'gus@example.com', fullName: 'Gus Guest', role: 600 });
  const { realm, owner } = must(
    await createRealm(world.ctx, {
      name: 'Other Org',
      url: 'http://other.example.com',
      subdomain: 'other',
      owner: { email: 'boss@other.example.com', fullName: 'Bea Boss', password: 'boss-password' },
    }),
  );
  const server = await startServer(world);
  return { world, server, owner: world.owner, admin, moderator, member, guest, other: { realm, user: owner } };
}

/** Registers an event queue for `user` and returns a function that reads every event queued since. */
export async function listen(server: TestServer, user: User, eventTypes?: string[]) {
  const values: Record<string, string> = eventTypes ? { event_types: JSON.stringify(eventTypes) } : {};
  const { queue_id: queueId } = expectSuccess(await call(server, 'POST', '/register', { auth: user, body: form(values) }));
  let last = -1;
  // biome-ignore lint/suspicious/noExplicitAny: event bodies are compared field by field.
  return async (): Promise<any[]> => {
    const body = expectSuccess(await call(server, 'GET', '/events', { auth: user, query: { queue_id: queueId, last_event_id: String(last), dont_block: 'true' } }));
    if (body.events.length > 0) last = body.events.at(-1).id;
    return body.events.filter((e: { type: string }) => e.type !== 'heartbeat').map(({ id: _id, ...rest }: { id: number }) => rest);
  };
}

/** Asserts a 4xx error envelope (any code), for garbage input where only "not a 500" is required. */
export function expect4xx(response: ApiResponse): void {
  expect(response.status, response.text).toBeGreaterThanOrEqual(400);
  expect(response.status, response.text).toBeLessThan(500);
  expect(response.body.result).toBe('error');
  expect(typeof response.body.code).toBe('string');
}

export const UNAUTH = 'Not logged in: API authentication or user session required';
