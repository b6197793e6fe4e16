import { scrypt } from 'node:crypto';

/** scrypt's cost parameters; stored in every hash so that they can be raised later. */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/**
 * Derives a key from a password. Injectable (`createContext({ scrypt })`) so that tests can
 * count the work a login does instead of timing it.
 */
export type ScryptFn = (password: string, salt: Buffer, cost: ScryptCost) => Promise<Buffer>;

/** Bytes of a derived key (256 bits). */
export const KEY_LENGTH = 32;

/**
 * The largest memory one derivation may use (128·N·r bytes): costs read back from storage
 * beyond this are treated as a broken hash rather than run.
 */
const MAX_SCRYPT_MEMORY = 512 * 1024 * 1024;

/** Node's scrypt on the thread pool (never the event loop), allowed exactly the memory its cost needs. */
export const nodeScrypt: ScryptFn = (password, salt, { N, r, p }) =>
  new Promise((resolve, reject) =>
    scrypt(password, salt, KEY_LENGTH, { N, r, p, maxmem: 128 * N * r * 2 + 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );

/** A stored hash split into its parts. */
export interface ParsedHash {
  cost: ScryptCost;
  salt: Buffer;
  key: Buffer;
}

/** `scrypt$N$r$p$<salt b64>$<key b64>`. Never store or log the password itself. */
export const formatHash = ({ cost, salt, key }: ParsedHash) =>
  ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$');

/** Null for anything that is not a usable hash of ours (absent, foreign scheme, absurd cost). */
export function parseHash(stored: string | null): ParsedHash | null {
  if (!stored) return null;
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (!isSaneCost({ N, r, p })) return null;
  const salt = Buffer.from(parts[4]!, 'base64');
  const key = Buffer.from(parts[5]!, 'base64');
  if (salt.length === 0 || key.length !== KEY_LENGTH) return null;
  return { cost: { N, r, p }, salt, key };
}

function isSaneCost({ N, r, p }: ScryptCost): boolean {
  const integers = [N, r, p].every((n) => Number.isSafeInteger(n) && n >= 1);
  return integers && N >= 2 && (N & (N - 1)) === 0 && r <= 32 && p <= 16 && 128 * N * r <= MAX_SCRYPT_MEMORY;
}

/** True when `stored` is cheaper than `wanted` in any parameter: the hash is redone at the next login. */
export const isWeakerCost = (stored: ScryptCost, wanted: ScryptCost) =>
  stored.N < wanted.N || stored.r < wanted.r || stored.p < wanted.p;
