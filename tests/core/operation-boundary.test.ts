import { getOwnUser, silentLogger } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';

describe('the operation wrapper', () => {
  it('turns an unexpected exception into INTERNAL_SERVER_ERROR and reports it to the logger', async () => {
    const logged: { fields: object; message?: string }[] = [];
    const logger = { ...silentLogger, error: (fields: object, message?: string) => void logged.push({ fields, message }) };
    const w = await makeWorld({ logger });
    const failure = new Error('disk I/O error');
    w.ctx.storage.read = () => Promise.reject(failure);
    w.ctx.storage.transaction = () => Promise.reject(failure);

    const result = await getOwnUser(w.ctx, w.as(w.owner));

    expect(result.isErr() && result.error.code).toBe('INTERNAL_SERVER_ERROR');
    expect(result.isErr() && result.error.msg).toBe('Internal server error');
    expect(logged).toEqual([{ fields: { err: failure }, message: 'an operation failed unexpectedly' }]);
  });

  it('still answers validation failures and refused callers without reaching the logger', async () => {
    const logged: unknown[] = [];
    const w = await makeWorld({ logger: { ...silentLogger, error: (fields: object) => void logged.push(fields) } });

    const refused = await getOwnUser(w.ctx, { realm: w.realm, user: null });

    expect(refused.isErr() && refused.error.code).toBe('UNAUTHORIZED');
    expect(logged).toEqual([]);
  });
});
