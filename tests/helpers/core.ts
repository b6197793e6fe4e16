import {
  type Caller,
  type ContextOptions,
  type Ctx,
  createContext,
  createRealm,
  createUserAsOperator,
  type NewUserInput,
  type Realm,
  type User,
} from '@teamchat/core';
import { worldStorage } from './storage.js';

/** Unwraps an Ok result or fails the test with the error. */
export function must<T>(result: { isOk(): boolean; value?: T; error?: unknown }): T {
  if (!result.isOk()) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`);
  return result.value as T;
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

/** A fresh in-memory server with one realm and its owner. */
export async function makeWorld(options: ContextOptions & { realmUrl?: string; subdomain?: string } = {}): Promise<World> {
  const ctx = createContext({ storage: worldStorage(options), ...options, config: { passwordHashCost: TEST_PASSWORD_HASH_COST, ...options.config } });
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
