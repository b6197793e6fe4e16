/**
 * The concurrency proof the design asks for: an async interface over one better-sqlite3
 * connection never lets two operations' statements interleave. First at the storage level
 * (shared cases), then through a real HTTP server with hundreds of requests in flight.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger, type User } from '@teamchat/core';
import { createSqliteStorage } from '@teamchat/core/sqlite';
import { type RunningServer, serve } from '@teamchat/http-adapter';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { makeWorld, type World } from '../helpers/core.js';
import { testStorageConcurrency } from './concurrency.case.js';
import { withLatency } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'teamchat-concurrency-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

testStorageConcurrency('sqlite :memory:', () => createSqliteStorage());
testStorageConcurrency('sqlite file', () => createSqliteStorage({ filename: join(dir, `db${++files}.sqlite`) }));

// Each variant runs the HTTP cases: the plain driver, and the driver with a macrotask before
// every statement (without it, handlers finish a transaction before the next request is read).
const variants = [
  { name: 'plain', storage: () => createSqliteStorage() },
  { name: 'with statement latency', storage: () => withLatency(createSqliteStorage()) },
];

describe.each(variants)('concurrent HTTP requests against a real server ($name)', ({ storage }) => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const auth = (user: User) => `Basic ${Buffer.from(`${user.deliveryEmail}:${user.apiKey}`).toString('base64')}`;

  interface Reply {
    status: number;
    // biome-ignore lint/suspicious/noExplicitAny: envelopes are checked field by field.
    body: any;
  }

  async function start(world: World) {
    const errors: unknown[] = [];
    // Unexpected exceptions inside operations reach the context's logger; the rest, the app's hook.
    world.ctx.logger = { ...silentLogger, error: (fields) => void errors.push(fields) };
    server = await serve(world.ctx, { port: 0, onInternalError: (e) => errors.push(e) });
    const base = server.url;
    const call = async (user: User, method: string, path: string, form?: Record<string, string>): Promise<Reply> => {
      const response = await fetch(`${base}/api/v1${path}`, {
        method,
        headers: { authorization: auth(user) },
        body: form ? new URLSearchParams(form) : undefined,
      });
      const text = await response.text();
      expect(text.endsWith('\n')).toBe(true);
      const body = JSON.parse(text);
      // Every reply is a valid envelope: success with 200, or an error with a message and 4xx.
      if (response.status === 200) expect(body).toMatchObject({ result: 'success', msg: '' });
      else expect(body).toMatchObject({ result: 'error', msg: expect.any(String), code: expect.any(String) });
      return { status: response.status, body };
    };
    return { call, errors };
  }

  it('200 mixed reads, updates and half-valid updates: all answered, nothing half-written', async () => {
    const world = await makeWorld({ storage: storage() });
    const targets: User[] = [];
    for (let i = 0; i < 10; i++) targets.push(await world.addUser({ email: `member${i}@example.com`, fullName: `Member ${i}` }));
    const { call, errors } = await start(world);

    const namesSent = new Map<number, Set<string>>(targets.map((t) => [t.id, new Set([t.fullName])]));
    const seenPoison: string[] = [];
    const requests = Array.from({ length: 200 }, async (_, i) => {
      const target = targets[i % targets.length]!;
      switch (i % 5) {
        case 0: {
          const reply = await call(world.owner, 'GET', '/users');
          expect(reply.status).toBe(200);
          expect(reply.body.members).toHaveLength(targets.length + 1);
          for (const m of reply.body.members) if (/POISON/.test(m.full_name) || m.role === 200) seenPoison.push(m.full_name);
          return 'read';
        }
        case 1: {
          const fullName = `Renamed ${i}`;
          namesSent.get(target.id)!.add(fullName);
          const reply = await call(world.owner, 'PATCH', `/users/${target.id}`, { full_name: fullName });
          expect(reply.status).toBe(200);
          return 'renamed';
        }
        case 2: {
          const reply = await call(world.owner, 'PATCH', `/users/${target.id}`, { role: i % 2 ? '300' : '400' });
          expect(reply.status).toBe(200);
          return 'role';
        }
        case 3: {
          // A valid name and role, then a profile field that does not exist: the whole update fails.
          const reply = await call(world.owner, 'PATCH', `/users/${target.id}`, {
            full_name: `POISON ${i}`,
            role: '200',
            profile_data: JSON.stringify([{ id: 99, value: 'x' }]),
          });
          expect(reply.status).toBe(400);
          return 'refused';
        }
        default: {
          // A valid role change, then a name over the length limit.
          const reply = await call(world.owner, 'PATCH', `/users/${target.id}`, { role: '200', full_name: 'P'.repeat(101) });
          expect(reply.status).toBe(400);
          return 'refused';
        }
      }
    });
    const outcomes = await Promise.all(requests);
    expect(outcomes.filter((o) => o === 'refused')).toHaveLength(80);
    expect(errors).toEqual([]);
    expect(seenPoison).toEqual([]);

    const final = (await call(world.owner, 'GET', '/users')).body.members as { user_id: number; full_name: string; role: number }[];
    const stored = await world.ctx.storage.read((tx) => tx.users.list(world.realm.id));
    for (const target of targets) {
      const member = final.find((m) => m.user_id === target.id)!;
      expect(namesSent.get(target.id)).toContain(member.full_name);
      expect([300, 400]).toContain(member.role);
      // The API and the store agree, and nothing else about the user changed.
      const row = stored.find((u) => u.id === target.id)!;
      expect({ fullName: row.fullName, role: row.role }).toEqual({ fullName: member.full_name, role: member.role });
      expect({ ...row, fullName: target.fullName, role: target.role }).toEqual(target);
    }
  });

  it('owners demoting themselves all at once never leave the realm without an owner', async () => {
    const world = await makeWorld({ storage: storage() });
    const owners = [world.owner];
    for (let i = 0; i < 7; i++) owners.push(await world.addUser({ email: `owner${i}@example.com`, role: 100 }));
    const { call, errors } = await start(world);

    // Each check-then-write ("am I the only owner?" then "demote") must see the others' commits.
    const replies = await Promise.all(owners.map((o) => call(o, 'PATCH', `/users/${o.id}`, { role: '400' })));
    expect(errors).toEqual([]);
    expect(replies.filter((r) => r.status === 200)).toHaveLength(owners.length - 1);
    const refused = replies.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.body.msg).toMatch(/only organization owner/);
    expect(await world.ctx.storage.read((tx) => tx.users.countActiveHumanOwners(world.realm.id))).toBe(1);
  });

  it('concurrent sign-ups of one email (in different cases): exactly one account is created', async () => {
    const world = await makeWorld({ storage: storage() });
    const { call, errors } = await start(world);
    const emails = Array.from({ length: 12 }, (_, i) => (i % 2 ? 'Same.Person@example.com' : 'same.person@EXAMPLE.com'));
    const replies = await Promise.all(
      emails.map((email, i) => call(world.owner, 'POST', '/users', { email, password: 'secret123', full_name: `Same ${i}` })),
    );
    expect(errors).toEqual([]);
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 400)).toHaveLength(emails.length - 1);
    expect(await world.ctx.storage.read((tx) => tx.users.list(world.realm.id))).toHaveLength(2);
  });
});
