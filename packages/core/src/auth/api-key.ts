import { timingSafeEqual } from 'node:crypto';
import type { Ctx } from '../context.js';

const API_KEY_FORMAT = /^[A-Za-z0-9]{32}$/;

/** 32 random characters from [A-Za-z0-9], as the reference generates them. */
export function generateApiKey(ctx: Ctx): string {
  let key = '';
  while (key.length < 32) key += ctx.randomBytes(48).toString('base64').replace(/[^A-Za-z0-9]/g, '');
  return key.slice(0, 32);
}

export const hasApiKeyFormat = (key: string) => API_KEY_FORMAT.test(key);

/** Compares two keys in time independent of where they differ. */
export function apiKeysEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
