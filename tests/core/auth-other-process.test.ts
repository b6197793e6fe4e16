/**
 * Authentication against changes made by another process on the same database (a second SQLite
 * connection on the file, a second PostgreSQL driver): a changed key, a deactivated user or
 * realm and a changed email are refused on the very next request, after the same credentials
 * were accepted (the guard for any cache of users or realms on the request path).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authenticateRequest, type Ctx, type Storage } from '@teamchat/core';
import { createSqliteStorage } from '@teamchat/core/sqlite';
import { createPostgresStorage } from '@teamchat/postgres';
import { ok } from 'neverthrow';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { makeWorld, type World } from '../helpers/core.js';
import { postgresTestDatabase, TEST_DRIVER } from '../helpers/storage.js';

const dir = mkdtempSync(join(tmpdir(), 'teamchat-auth-other-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const opened: Storage[] = [];
const worlds: World[] = [];
afterEach(async () => {
  for (const world of worlds.splice(0)) await world.ctx.storage.close();
  for (const storage of opened.splice(0)) await storage.close();
});

/** A world served by one process, and the storage of another process on the same database. */
async function twoProcesses(): Promise<{ world: World; other: Storage }> {
  if (TEST_DRIVER === 'postgres') {
    const url = await postgresTestDatabase();
    const [mine, other] = [createPostgresStorage({ url, readConnections: 1 }), createPostgresStorage({ url, readConnections: 1 })];
    opened.push(other);
    const world = await makeWorld({ storage: mine });
    worlds.push(world);
    return { world, other };
  }
  const databaseFile = join(dir, `chat-${files++}.db`);
  const world = await makeWorld({ databaseFile, config: { timers: false } });
  worlds.push(world);
  const other = createSqliteStorage({ filename: databaseFile });
  opened.push(other);
  return { world, other };
}

const HOST = 'chat.example.com';

async function attempt(ctx: Ctx, email: string, apiKey: string) {
  const result = await authenticateRequest(ctx, HOST, { email, apiKey });
  return result.isOk() ? { userId: result.value.user?.id } : { error: result.error.msg };
}

describe('authentication after another process changed users or realms', () => {
  it('refuses, on the next request, a key, a deactivation and an email changed by another process', async () => {
    const { world, other } = await twoProcesses();
    const { ctx, realm, owner } = world;
    const member = await world.addUser({ email: 'member@example.com', fullName: 'Mel Member' });
    // Accepted twice in a row first: whatever a process could keep, it has it.
    for (let i = 0; i < 2; i++) {
      expect(await attempt(ctx, owner.deliveryEmail, owner.apiKey)).toEqual({ userId: owner.id });
      expect(await attempt(ctx, member.deliveryEmail, member.apiKey)).toEqual({ userId: member.id });
    }
    const write = (fn: Parameters<Storage['transaction']>[0]) => other.transaction(fn);

    const newKey = 'A'.repeat(32);
    await write(async (tx) => ok(await tx.users.update(realm.id, member.id, { apiKey: newKey })));
    expect(await attempt(ctx, member.deliveryEmail, member.apiKey)).toEqual({ error: 'Invalid API key' });
    expect(await attempt(ctx, member.deliveryEmail, newKey)).toEqual({ userId: member.id });

    await write(async (tx) => ok(await tx.users.update(realm.id, member.id, { isActive: false })));
    expect(await attempt(ctx, member.deliveryEmail, newKey)).toEqual({ error: 'Account is deactivated' });
    await write(async (tx) => ok(await tx.users.update(realm.id, member.id, { isActive: true })));
    expect(await attempt(ctx, member.deliveryEmail, newKey)).toEqual({ userId: member.id });

    await write(async (tx) => ok(await tx.users.update(realm.id, member.id, { deliveryEmail: 'moved@example.com' })));
    expect(await attempt(ctx, 'member@example.com', newKey)).toEqual({ error: 'Invalid API key' });
    expect(await attempt(ctx, 'moved@example.com', newKey)).toEqual({ userId: member.id });

    // A change to another user refuses nothing and lets nothing through.
    expect(await attempt(ctx, owner.deliveryEmail, owner.apiKey)).toEqual({ userId: owner.id });
    expect(await attempt(ctx, owner.deliveryEmail, newKey)).toEqual({ error: 'Invalid API key' });
  });

  it('refuses, on the next request, a realm deactivated by another process', async () => {
    const { world, other } = await twoProcesses();
    const { ctx, realm, owner } = world;
    expect(await attempt(ctx, owner.deliveryEmail, owner.apiKey)).toEqual({ userId: owner.id });
    await other.transaction(async (tx) => ok(await tx.realms.update(realm.id, { deactivated: true })));
    expect(await attempt(ctx, owner.deliveryEmail, owner.apiKey)).toEqual({ error: 'This organization has been deactivated' });
  });

  it('gives each request its own user object', async () => {
    const { world } = await twoProcesses();
    const { ctx, owner } = world;
    const first = await authenticateRequest(ctx, HOST, { email: owner.deliveryEmail, apiKey: owner.apiKey });
    const user = first._unsafeUnwrap().user!;
    user.fullName = 'Changed by a caller';
    user.isActive = false;
    const second = await authenticateRequest(ctx, HOST, { email: owner.deliveryEmail, apiKey: owner.apiKey });
    expect(second._unsafeUnwrap().user).toMatchObject({ id: owner.id, fullName: owner.fullName, isActive: true });
  });
});
