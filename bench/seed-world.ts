/**
 * The data directory most figures run against, seeded once per invocation through core's public
 * operations before any server starts: a realm, its owner, MEMBERS members with API keys, the
 * channel "fifty" (the owner and 50 members: the send figures) and the channel "everyone" (the
 * owner and every member: the fan-out figure). Each server gets a fresh copy (`copyWorld`).
 */
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { closeContext, createRealm, createUserAsOperator, doSubscribe, type Storage, type User } from '@teamchat/core';
import { openDataDir } from '../packages/cli/src/data-dir.js';

export const MEMBERS = 1000;
export const FIFTY = 50;

export interface Credentials {
  email: string;
  apiKey: string;
}

export interface World {
  /** The seeded data directory; copy it, never serve it (servers write to their directory). */
  dir: string;
  owner: Credentials;
  ownerId: number;
  members: Credentials[];
  fiftyStreamId: number;
  everyoneStreamId: number;
}

const unwrap = <T>(result: { isOk(): boolean; value?: T; error?: { msg?: string } }): T => {
  if (!result.isOk()) throw new Error(`seeding failed: ${result.error?.msg ?? JSON.stringify(result.error)}`);
  return result.value as T;
};

const credentials = (user: User): Credentials => ({ email: user.deliveryEmail, apiKey: user.apiKey });

/** Options for seeding only: no timers, a cheap password hash, and no fsync per row (the file is closed cleanly, and every server reopens it with FULL). */
export const SEEDING = { config: { timers: false, passwordHashCost: { N: 1024, r: 8, p: 1 } }, sqlite: { synchronous: 'normal' as const } };

/** Seeds `parent/name`; with `storage` (a PostgreSQL database) the rows go there and the directory keeps uploads only. */
export async function seedWorld(parent: string, options: { name?: string; storage?: Storage } = {}): Promise<World> {
  const dir = join(parent, options.name ?? 'world');
  mkdirSync(dir, { recursive: true });
  const ctx = openDataDir(dir, { ...SEEDING, storage: options.storage });
  const { realm, owner } = unwrap(
    await createRealm(ctx, { name: 'Bench Org', url: 'http://127.0.0.1', owner: { email: 'owner@example.com', fullName: 'Olivia Owner', password: 'owner-password' } }),
  );
  const members: User[] = [];
  for (let i = 0; i < MEMBERS; i++) members.push(unwrap(await createUserAsOperator(ctx, realm, { email: `user${i}@example.com`, fullName: `User ${i}` })));
  const asOwner = { realm, user: owner };
  const subscribe = async (name: string, users: readonly User[]) =>
    unwrap(await doSubscribe(ctx, asOwner, { subscriptions: [{ name }], principals: [owner.id, ...users.map((u) => u.id)] }));
  await subscribe('fifty', members.slice(0, FIFTY));
  await subscribe('everyone', members);
  const streams = await ctx.storage.read((tx) => tx.streams.list(realm.id));
  const idOf = (name: string) => streams.find((s) => s.name === name)!.id;
  const world = { dir, owner: credentials(owner), ownerId: owner.id, members: members.map(credentials), fiftyStreamId: idOf('fifty'), everyoneStreamId: idOf('everyone') };
  await closeContext(ctx);
  return world;
}

/** A fresh copy of the seeded directory for one server. */
export function copyWorld(world: World, into: string): string {
  cpSync(world.dir, into, { recursive: true });
  return into;
}

export const basicAuth = ({ email, apiKey }: Credentials) => `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}`;
