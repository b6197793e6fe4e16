/**
 * Shared pieces of the core user tests: a settable clock, direct reads and writes of stored
 * users (for state the API cannot set yet, such as email_address_visibility), and error checks.
 */
import { httpStatus } from '@teamchat/http-adapter';
import { type ApiError, type Clock, createRealm, type Ctx, type Realm, type User, type UserPatch } from '@teamchat/core';
import { expect } from 'vitest';
import { must } from '../helpers/core.js';

/** 2024-01-02T03:04:05.678Z */
export const T0 = Date.UTC(2024, 0, 2, 3, 4, 5, 678);

/** A clock the test moves by hand. */
export function fakeClock(start = T0): Clock & { t: number; advance(ms: number): void } {
  return {
    t: start,
    now() {
      return this.t;
    },
    advance(ms) {
      this.t += ms;
    },
  };
}

/** What the reference prints for a timestamp: microseconds and a +00:00 offset. */
export const isoAt = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000+00:00');

export const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/;

/** An Ok result for storage transactions (neverthrow is a dependency of core, not of the tests). */
const COMMIT = { isOk: () => true, isErr: () => false, value: undefined } as never;

/** The stored row of a user, as it is now. */
export async function reload(ctx: Ctx, user: Pick<User, 'realmId' | 'id'>): Promise<User> {
  const row = await ctx.storage.read((tx) => tx.users.byId(user.realmId, user.id));
  if (!row) throw new Error(`user ${user.id} vanished`);
  return row;
}

/** Writes stored fields of a user directly and returns the updated row. */
export async function setUser(ctx: Ctx, user: Pick<User, 'realmId' | 'id'>, patch: UserPatch): Promise<User> {
  await ctx.storage.transaction(async (tx) => {
    await tx.users.update(user.realmId, user.id, patch);
    return COMMIT;
  });
  return reload(ctx, user);
}

/** Every user of a realm, as stored: for "nothing changed" checks. */
export function snapshot(ctx: Ctx, realm: Pick<Realm, 'id'>): Promise<User[]> {
  return ctx.storage.read((tx) => tx.users.list(realm.id));
}

/** A second realm on the same server, with its own owner. */
export async function secondRealm(ctx: Ctx): Promise<{ realm: Realm; owner: User }> {
  return must(
    await createRealm(ctx, {
      name: 'Other Org',
      url: 'http://other.example.net',
      subdomain: 'other',
      owner: { email: 'boss@other.example.net', fullName: 'Other Boss', password: 'other-password' },
    }),
  );
}

/** Unwraps an Err result or fails the test. */
export function failure(result: { isErr(): boolean; error?: unknown; value?: unknown }): ApiError {
  if (!result.isErr()) throw new Error(`expected an error, got ${JSON.stringify(result.value)}`);
  return result.error as ApiError;
}

/** Asserts an Err result with the given code, message, HTTP status and (exactly) extra fields. */
export function expectError(
  result: { isErr(): boolean; error?: unknown; value?: unknown },
  code: string,
  msg: string,
  status = 400,
  data: Record<string, unknown> = {},
): void {
  const error = failure(result);
  expect({ code: error.code, msg: error.msg, status: httpStatus(error), data: error.data }).toEqual({ code, msg, status, data });
}

/** A BAD_REQUEST of HTTP 400 with no extra fields. */
export const expectBadRequest = (result: Parameters<typeof failure>[0], msg: string) =>
  expectError(result, 'BAD_REQUEST', msg, 400);

/** Realm settings that let moderators create web-public channels (the reference's default is owners only). */
export const MODERATORS_CREATE_WEB_PUBLIC = { can_create_web_public_channel_group: 'role:moderators' };
