import { describe, expect, it } from 'vitest';
import { getUsers, doCreateUser } from '@teamchat/core';
import { makeWorld, must } from '../helpers/core.js';

describe('smoke', () => {
  it('lists users', async () => {
    const w = await makeWorld();
    const r = must(await getUsers(w.ctx, w.as(w.owner), {}));
    expect(r).toMatchObject({ members: [{ user_id: w.owner.id, role: 100, avatar_url: null }] });
    const created = await doCreateUser(w.ctx, w.as(w.owner), { email: 'a@example.com', password: 'secret123', full_name: 'A' });
    expect(created.isOk()).toBe(true);
    const bad = await getUsers(w.ctx, w.as(w.owner), { user_ids: '[1,"x"]' });
    expect(bad._unsafeUnwrapErr()).toMatchObject({ code: 'BAD_REQUEST', msg: 'user_ids[1] is not an integer' });
    const bad2 = await getUsers(w.ctx, w.as(w.owner), { client_gravatar: 'True' });
    expect(bad2._unsafeUnwrapErr()).toMatchObject({ msg: 'client_gravatar is not valid JSON' });
  });
});
