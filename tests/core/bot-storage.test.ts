/** /bot_storage (the reference's views/storage.py): a user's string key-value store. */
import { doPutBotStorage, doRemoveBotStorage, getBotStorage } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import { expectBadRequest, secondRealm } from './fixtures.js';

async function world(config = {}) {
  const w = await makeWorld({ config: { timers: false, ...config } });
  const bot = await w.addUser({ email: 'helper-bot@example.com', fullName: 'Helper Bot', bot: true, botOwnerId: w.owner.id });
  return { w, bot };
}

describe('/bot_storage', () => {
  it('puts, reads every key or the named ones, and removes', async () => {
    const { w, bot } = await world();
    must(await doPutBotStorage(w.ctx, w.as(bot), { storage: { 'entry 1': 'value 1', 'entry 2': 'value 2', 'entry 3': 'value 3' } }));
    must(await doPutBotStorage(w.ctx, w.as(bot), { storage: { 'entry 2': 'changed' } }));
    expect(must(await getBotStorage(w.ctx, w.as(bot), {}))).toEqual({ storage: { 'entry 1': 'value 1', 'entry 2': 'changed', 'entry 3': 'value 3' } });
    expect(must(await getBotStorage(w.ctx, w.as(bot), { keys: ["entry 1","entry 3"] }))).toEqual({ storage: { 'entry 1': 'value 1', 'entry 3': 'value 3' } });
    expect(must(await getBotStorage(w.ctx, w.as(bot), { keys: [] }))).toEqual(must(await getBotStorage(w.ctx, w.as(bot), {})));
    must(await doRemoveBotStorage(w.ctx, w.as(bot), { keys: ["entry 1"] }));
    expect(must(await getBotStorage(w.ctx, w.as(bot), {}))).toEqual({ storage: { 'entry 2': 'changed', 'entry 3': 'value 3' } });
    must(await doRemoveBotStorage(w.ctx, w.as(bot), {}));
    expect(must(await getBotStorage(w.ctx, w.as(bot), {}))).toEqual({ storage: {} });
  });

  it('refuses missing keys on read and removal, removing nothing', async () => {
    const { w, bot } = await world();
    must(await doPutBotStorage(w.ctx, w.as(bot), { storage: {"a":"1"} }));
    expectBadRequest(await getBotStorage(w.ctx, w.as(bot), { keys: ["a","b"] }), 'Key does not exist.');
    expectBadRequest(await doRemoveBotStorage(w.ctx, w.as(bot), { keys: ["a","b"] }), 'Key does not exist.');
    expect(must(await getBotStorage(w.ctx, w.as(bot), {}))).toEqual({ storage: { a: '1' } });
  });

  it('keeps each user’s entries apart, across users and realms', async () => {
    const { w, bot } = await world();
    const other = await secondRealm(w.ctx);
    must(await doPutBotStorage(w.ctx, w.as(bot), { storage: {"a":"mine"} }));
    must(await doPutBotStorage(w.ctx, { realm: other.realm, user: other.owner }, { storage: {"a":"theirs"} }));
    expect(must(await getBotStorage(w.ctx, w.as(w.owner), {}))).toEqual({ storage: {} });
    expect(must(await getBotStorage(w.ctx, w.as(bot), {}))).toEqual({ storage: { a: 'mine' } });
    expect(must(await getBotStorage(w.ctx, { realm: other.realm, user: other.owner }, {}))).toEqual({ storage: { a: 'theirs' } });
  });

  it('bounds the store in characters, counting a replaced entry once', async () => {
    const { w, bot } = await world({ botStorageSizeLimit: 10 });
    must(await doPutBotStorage(w.ctx, w.as(bot), { storage: {"k":"éééé"} }));
    must(await doPutBotStorage(w.ctx, w.as(bot), { storage: {"k":"123456789"} }));
    expectBadRequest(
      await doPutBotStorage(w.ctx, w.as(bot), { storage: {"x":"12"} }),
      'Request exceeds storage limit by 3 characters. The limit is 10 characters.',
    );
    expect(must(await getBotStorage(w.ctx, w.as(bot), {}))).toEqual({ storage: { k: '123456789' } });
  });

  it('validates its parameters', async () => {
    const { w, bot } = await world();
    const missing = await doPutBotStorage.fromTransport(w.ctx, w.as(bot), {});
    expect(missing.isErr() && missing.error.code).toBe('REQUEST_VARIABLE_MISSING');
    for (const storage of ['{"a":1}', '["a"]', 'nope', '{"a":null}']) {
      const bad = await doPutBotStorage.fromTransport(w.ctx, w.as(bot), { storage });
      expect(bad.isErr() && bad.error.code, storage).toMatch(/BAD_REQUEST|INVALID_JSON/);
    }
    const keys = await getBotStorage.fromTransport(w.ctx, w.as(bot), { keys: [1] });
    expect(keys.isErr() && keys.error.code).toBe('BAD_REQUEST');
    const anonymous = await getBotStorage(w.ctx, { realm: w.realm, user: null }, {});
    expect(anonymous.isErr() && anonymous.error.code).toBe('UNAUTHORIZED');
  });
});
