import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Ctx } from '../context.js';
import { HashSlots } from './hash-slots.js';
import { formatHash, isWeakerCost, KEY_LENGTH, nodeScrypt, parseHash, type ScryptCost, type ScryptFn } from './scrypt.js';

const SALT_LENGTH = 16;

/** How a context derives password keys: the scrypt function and the slots that bound its concurrency. */
export interface PasswordHasher {
  scrypt: ScryptFn;
  slots: HashSlots;
  /** Compared against when there is no real hash, so that a check costs the same either way. */
  dummy: { salt: Buffer; key: Buffer };
}

/** The hasher `createContext` installs; `scrypt` replaces Node's (tests count calls with it). */
export function createPasswordHasher(options: { scrypt?: ScryptFn; concurrency: number; maxWaiting: number }): PasswordHasher {
  return {
    scrypt: options.scrypt ?? nodeScrypt,
    slots: new HashSlots(options.concurrency, options.maxWaiting),
    dummy: { salt: randomBytes(SALT_LENGTH), key: randomBytes(KEY_LENGTH) },
  };
}

const derive = (ctx: Ctx, password: string, salt: Buffer, cost: ScryptCost) =>
  ctx.passwords.slots.run(() => ctx.passwords.scrypt(password.normalize('NFKC'), salt, cost));

/** A new hash of `password` at the configured cost (`config.passwordHashCost`). */
export async function hashPassword(ctx: Ctx, password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const cost = { ...ctx.config.passwordHashCost };
  return formatHash({ cost, salt, key: await derive(ctx, password, salt, cost) });
}

/** The outcome of a password check. `outdated`: it matched a hash weaker than the configured cost. */
export interface PasswordCheck {
  matches: boolean;
  outdated: boolean;
}

/**
 * Checks `password` against a stored hash. Exactly one derivation runs whatever `stored` is:
 * with no usable hash (no account, no password, a broken hash) it runs against a dummy at the
 * configured cost and fails, so that the time taken does not tell whether an account exists.
 */
export async function checkPassword(ctx: Ctx, password: string, stored: string | null): Promise<PasswordCheck> {
  const parsed = parseHash(stored);
  const target = parsed ?? { cost: ctx.config.passwordHashCost, ...ctx.passwords.dummy };
  const actual = await derive(ctx, password, target.salt, target.cost);
  const matches = parsed !== null && timingSafeEqual(actual, target.key);
  return { matches, outdated: matches && isWeakerCost(target.cost, ctx.config.passwordHashCost) };
}
