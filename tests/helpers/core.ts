import {
  type Caller,
  type Ctx,
  createContext,
  createRealm,
  createUserAsOperator,
  type NewUserInput,
  type Realm,
  type Storage,
  type User,
} from '@teamchat/core';
import { createSqliteContext, type SqliteContextOptions } from '@teamchat/core/sqlite';
import { worldStorage } from './storage.js';

/** Unwraps an Ok result or fails the test with the error. */
export function must<T>(result: { isOk(): boolean; value?: T; error?: unknown }): T {
  if (!result.isOk()) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`);
  return result.value as T;
}

/** The queue a register answer opened: null only for a spectator, whom these tests never register. */
export function queueIdOf(state: { queue_id: string | null }): string {
  if (state.queue_id === null) throw new Error('register opened no queue');
  return state.queue_id;
}

/** A context with the tests' cheap password hashing: on `options.storage` when given, else on SQLite. */
export function testContext(options: SqliteContextOptions & { storage?: Storage } = {}): Ctx {
  const { storage, ...rest } = options;
  const config = { passwordHashCost: TEST_PASSWORD_HASH_COST, ...rest.config };
  return storage ? createContext({ ...rest, storage, config }) : createSqliteContext({ ...rest, config });
}

export interface World {
  ctx: Ctx;
  realm: Realm;
  owner: User;
  as(user: User | null): Caller;
  addUser(input: Partial<NewUserInput> & { email: string }): Promise<User>;
}

/**
 * A cheap scrypt cost for tests, so that the suite stays fast; the default (OWASP's minimum) is
 * tested in tests/core/password-hashing.test.ts. Pass `config.passwordHashCost` to override.
 */
export const TEST_PASSWORD_HASH_COST = { N: 1024, r: 8, p: 1 };

/** What makeWorld builds from: a SQLite context's options, or another driver as `storage`. */
export type WorldOptions = SqliteContextOptions & { storage?: Storage; realmUrl?: string; subdomain?: string };

/** A fresh server (in-memory SQLite unless `databaseFile` or `storage` is given) with one realm and its owner. */
export async function makeWorld(options: WorldOptions = {}): Promise<World> {
  const ctx = testContext({ ...options, storage: options.storage ?? worldStorage(options) });
  const { realm, owner } = must(
    await createRealm(ctx, {
      name: 'Test Org',
      url: options.realmUrl ?? 'http://chat.example.com',
      subdomain: options.subdomain,
      owner: { email: 'owner@example.com', fullName: 'Olivia Owner', password: 'owner-password' },
    }),
  );
  return {
    ctx,
    realm,
    owner,
    as: (user) => ({ realm, user }),
    addUser: async (input) =>
      must(await createUserAsOperator(ctx, realm, { fullName: input.email.split('@')[0]!, ...input })),
  };
}

/**
 * The same database through a storage handle of its own, as another process would see it: what
 * core keeps per storage (kept rows, users, channel state) is not shared with `ctx`'s.
 */
export function uncached(ctx: Ctx): Ctx {
  const storage: Storage = { read: (fn) => ctx.storage.read(fn), transaction: (fn) => ctx.storage.transaction(fn), close: async () => undefined };
  return { ...ctx, storage };
}
