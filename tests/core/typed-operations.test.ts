/**
 * The typed surface of operations: the input type derived from each schema (checked by the
 * compiler: the `@ts-expect-error` lines fail typecheck if the call they mark compiles), the
 * named result types, and the untyped transport entry that runs the same validation.
 */
import {
  type ApiMessage,
  type ApiUser,
  type doRegister,
  doSendMessage,
  doUpdateUser,
  type getMessages,
  getUsers,
  type InputOf,
  type RegisterResponse,
  type ResultOf,
} from '@teamchat/core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import { expectBadRequest } from './fixtures.js';

describe('typed operations', () => {
  it('derive their input from the schema: defaulted and optional fields may be left out, path parameters are fields', () => {
    expectTypeOf<InputOf<typeof getUsers>>().toEqualTypeOf<{
      client_gravatar?: boolean;
      include_custom_profile_fields?: boolean;
      user_ids?: number[];
    }>();
    expectTypeOf<InputOf<typeof doUpdateUser>>().toHaveProperty('user_id').toEqualTypeOf<number>();
    expectTypeOf<ResultOf<typeof getUsers>>().toEqualTypeOf<{ members: ApiUser[] }>();
    expectTypeOf<ResultOf<typeof getMessages>['messages']>().toEqualTypeOf<ApiMessage[]>();
    expectTypeOf<ResultOf<typeof doRegister>>().toEqualTypeOf<RegisterResponse>();
  });

  it('refuse form text, misspelled and missing parameters at compile time', async () => {
    const w = await makeWorld();
    const member = await w.addUser({ email: 'member@example.com', fullName: 'Mia Member' });
    // @ts-expect-error user_id is a number, not form text
    expectBadRequest(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: 'x' }), 'user_id is not an integer');
    // @ts-expect-error a misspelled parameter
    must(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: member.id, ful_name: 'Typo' }));
    // @ts-expect-error content is required
    expect((await doSendMessage(w.ctx, w.as(w.owner), { type: 'stream', to: 'general', topic: 't' })).isErr()).toBe(true);
    // No input at all where every field is optional.
    expect(must(await getUsers(w.ctx, w.as(w.owner))).members.map((u) => u.full_name)).toEqual(['Olivia Owner', 'Mia Member']);
  });

  it('take form text through fromTransport, with the same validation and the same answer', async () => {
    const w = await makeWorld();
    const member = await w.addUser({ email: 'member@example.com', fullName: 'Mia Member' });
    const typed = must(await getUsers(w.ctx, w.as(w.owner), { user_ids: [member.id], client_gravatar: false }));
    const fromForm = must(await getUsers.fromTransport(w.ctx, w.as(w.owner), { user_ids: `[${member.id}]`, client_gravatar: 'false' }));
    expect(fromForm).toEqual(typed);
    expect(typed.members[0]).toMatchObject({ user_id: member.id, full_name: 'Mia Member', role: 400 });
    expectBadRequest(await getUsers.fromTransport(w.ctx, w.as(w.owner), { user_ids: '[1' }), 'user_ids is not valid JSON');
    expectBadRequest(await getUsers.fromTransport(w.ctx, w.as(w.owner), { client_gravatar: 'maybe' }), 'client_gravatar is not valid JSON');
  });
});
