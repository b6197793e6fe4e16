/** Users' custom profile field values: validation per type, permissions, events, reads. */
import { doCreateUser, doDeactivateUser, doDeleteProfileField, doUpdateProfileField, doUpdateOwnProfileData, doUpdateUser, getOwnUser, getUser, getUsers } from '@teamchat/core';
import type { LooseQueuedEvent as QueuedEvent } from '../helpers/events.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { type ChannelWorld, channelWorld, ids, queued, recipientsOf, register } from './channel-helpers.js';
import { expectBadRequest, expectError, secondRealm } from './fixtures.js';
import { addField, CHOICES, setOwn } from './profile-field-helpers.js';

let c: ChannelWorld;
let f: Record<'short' | 'long' | 'select' | 'date' | 'url' | 'users' | 'account' | 'pronouns' | 'locked', number>;
beforeEach(async () => {
  c = await channelWorld();
  f = {
    short: await addField(c.w, 'Phone', 1),
    long: await addField(c.w, 'Bio', 2),
    select: await addField(c.w, 'Editor', 3, { field_data: CHOICES }),
    date: await addField(c.w, 'Birthday', 4),
    url: await addField(c.w, 'Site', 5),
    users: await addField(c.w, 'Manager', 6),
    account: await addField(c.w, 'GitHub', 7, { field_data: { subtype: 'custom', url_pattern: 'https://gh.example/%(username)s' } }),
    pronouns: await addField(c.w, 'Pronouns', 8),
    locked: await addField(c.w, 'Badge', 1, { editable_by_user: false }),
  };
  c.drain();
});

const profileDataOf = async (userId: number) =>
  must(await getUsers(c.w.ctx, c.w.as(c.other), { include_custom_profile_fields: true, user_ids: [userId] })).members[0]!.profile_data;

describe('PATCH /users/me/profile_data', () => {
  it('stores each type; GET /users, GET /users/{id}, GET /users/me and register show profile_data', async () => {
    must(
      await setOwn(c.w, c.member, [
        { id: f.short, value: '+1 *555*' },
        { id: f.long, value: 'Hello **world**' },
        { id: f.select, value: 'emacs' },
        { id: f.date, value: '2024-02-29' },
        { id: f.url, value: 'https://example.com/me' },
        { id: f.users, value: [c.other.id, c.admin.id] },
        { id: f.account, value: 'mel' },
        { id: f.pronouns, value: 'she/her' },
      ]),
    );
    const expected = {
      [f.short]: { value: '+1 *555*', rendered_value: '<p>+1 <em>555</em></p>' },
      [f.long]: { value: 'Hello **world**', rendered_value: '<p>Hello <strong>world</strong></p>' },
      [f.select]: { value: 'emacs' },
      [f.date]: { value: '2024-02-29' },
      [f.url]: { value: 'https://example.com/me' },
      [f.users]: { value: `[${c.other.id},${c.admin.id}]` },
      [f.account]: { value: 'mel' },
      [f.pronouns]: { value: 'she/her' },
    };
    expect(await profileDataOf(c.member.id)).toEqual(expected);
    expect(await profileDataOf(c.other.id)).toEqual({});
    expect(must(await getUsers(c.w.ctx, c.w.as(c.other), { user_ids: [c.member.id] })).members[0]).not.toHaveProperty('profile_data');
    expect(must(await getUser(c.w.ctx, c.w.as(c.guest), { user_id: String(c.member.id), include_custom_profile_fields: true })).user.profile_data).toEqual(expected);
    expect((must(await getOwnUser(c.w.ctx, c.w.as(c.member), {}))).profile_data).toEqual(expected);
    const state = await register(c.w, c.guest, { fetch_event_types: '["realm_user"]' });
    expect(state.realm_users.find((u: { user_id: number }) => u.user_id === c.member.id).profile_data).toEqual(expected);
    expect(state.realm_users.find((u: { user_id: number }) => u.user_id === c.bot.id)).not.toHaveProperty('profile_data');
  });

  it('announces each changed value to every active user, and nothing for unchanged ones', async () => {
    must(await setOwn(c.w, c.member, [{ id: f.short, value: 'a' }, { id: f.date, value: '2020-01-01' }]));
    const events = c.drain();
    expect(events.map((p) => p.event)).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: c.member.id, custom_profile_field: { id: f.short, value: 'a', rendered_value: '<p>a</p>' } } },
      { type: 'realm_user', op: 'update', person: { user_id: c.member.id, custom_profile_field: { id: f.date, value: '2020-01-01' } } },
    ]);
    expect(recipientsOf(events, 'realm_user', 'update')[0]).toEqual(ids(c.w.owner, c.admin, c.moderator, c.member, c.other, c.guest, c.bot));
    must(await setOwn(c.w, c.member, [{ id: f.short, value: 'a' }]));
    expect(c.drain()).toEqual([]);
  });

  it('null, an empty string or an empty list removes a value (announced with value null)', async () => {
    must(await setOwn(c.w, c.member, [{ id: f.short, value: 'a' }, { id: f.long, value: 'b' }, { id: f.users, value: [c.other.id] }]));
    c.drain();
    must(await setOwn(c.w, c.member, [{ id: f.short, value: null }, { id: f.long, value: '' }, { id: f.users, value: [] }, { id: f.date, value: null }]));
    expect(await profileDataOf(c.member.id)).toEqual({});
    expect(c.drain().map((p) => p.event.person)).toEqual([
      { user_id: c.member.id, custom_profile_field: { id: f.short, value: null } },
      { user_id: c.member.id, custom_profile_field: { id: f.long, value: null } },
      { user_id: c.member.id, custom_profile_field: { id: f.users, value: null } },
    ]);
  });

  it('refuses values that do not suit the field, naming it by its label; nothing is written or published', async () => {
    const deactivated = await c.w.addUser({ email: 'gone@example.com' });
    must(await doDeactivateUser(c.w.ctx, c.w.as(c.w.owner), { user_id: deactivated.id }));
    const other = await secondRealm(c.w.ctx);
    const cases: [unknown, number, string][] = [
      ['x'.repeat(51), f.short, 'Phone is too long (limit: 50 characters)'],
      ['x'.repeat(501), f.long, 'Bio is too long (limit: 500 characters)'],
      ['x'.repeat(51), f.account, 'GitHub is too long (limit: 50 characters)'],
      ['x'.repeat(51), f.pronouns, 'Pronouns is too long (limit: 50 characters)'],
      ['Vim', f.select, "'Vim' is not a valid choice for 'Editor'."],
      ['2023-02-29', f.date, 'Birthday is not a date'],
      ['29/02/2024', f.date, 'Birthday is not a date'],
      ['example.com', f.url, 'Site is not a URL'],
      ['javascript:alert(1)', f.url, 'Site is not a URL'],
      [[999], f.users, 'Invalid user ID: 999'],
      [[other.owner.id], f.users, `Invalid user ID: ${other.owner.id}`],
      [[deactivated.id], f.users, `User with ID ${deactivated.id} is deactivated`],
      [[c.bot.id], f.users, `User with ID ${c.bot.id} is a bot`],
      ['10', f.users, 'Manager is not a list'],
      [[1], f.short, 'Phone is not a string'],
      ['a', 12345, 'Field id 12345 not found.'],
    ];
    c.drain();
    for (const [value, id, msg] of cases) {
      const result = await setOwn(c.w, c.member, [{ id: f.pronouns, value: 'ok' }, { id, value }]);
      expect(result.isErr() && result.error.msg, msg).toBe(msg);
      expectBadRequest(result, msg);
    }
    expect(await profileDataOf(c.member.id)).toEqual({});
    expect(c.drain()).toEqual([]);
  });

  it('another realm’s field is unknown', async () => {
    const other = await secondRealm(c.w.ctx);
    expectBadRequest(
      await doUpdateOwnProfileData(c.w.ctx, { realm: other.realm, user: other.owner }, { data: [{ id: f.short, value: 'a' }] }),
      `Field id ${f.short} not found.`,
    );
  });

  it('a field not editable by users is closed to members, open to administrators', async () => {
    expectBadRequest(
      await setOwn(c.w, c.member, [{ id: f.locked, value: 'gold' }]),
      'You are not allowed to change this field. Contact an administrator to update it.',
    );
    must(await setOwn(c.w, c.admin, [{ id: f.locked, value: 'gold' }]));
    expect(await profileDataOf(c.admin.id)).toEqual({ [f.locked]: { value: 'gold', rendered_value: '<p>gold</p>' } });
  });

  it('bad input and bots are refused', async () => {
    const own = (input: Record<string, unknown>, user = c.member) => doUpdateOwnProfileData.fromTransport(c.w.ctx, c.w.as(user), input);
    expectError(await own({}), 'REQUEST_VARIABLE_MISSING', "Missing 'data' argument", 400, { var_name: 'data' });
    expectBadRequest(await own({ data: '[{' }), 'data is not valid JSON');
    expectBadRequest(await own({ data: '{"id":1}' }), 'data is not a list');
    expectBadRequest(await own({ data: JSON.stringify([{ id: f.short }]) }), 'data[0]["value"] field is missing');
    expectBadRequest(await own({ data: JSON.stringify([{ id: 'x', value: 'a' }]) }), 'data[0]["id"] is not an integer');
    expect((await own({ data: JSON.stringify([{ id: f.short, value: 'a', extra: 1 }]) })).isErr()).toBe(true);
    expect((await own({ data: JSON.stringify([{ id: f.short, value: 5 }]) })).isErr()).toBe(true);
    expectBadRequest(await setOwn(c.w, c.bot, [{ id: f.short, value: 'a' }]), 'This endpoint does not accept bot requests.');
    expectError(await doUpdateOwnProfileData(c.w.ctx, c.w.as(null), { data: [] }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
  });
});

describe('profile_data in PATCH /users/{user_id}', () => {
  it('an administrator sets any field of another user, editable or not, through the same checks', async () => {
    must(await doUpdateUser(c.w.ctx, c.w.as(c.admin), { user_id: c.member.id, profile_data: [{ id: f.locked, value: 'gold' }, { id: f.select, value: 'vim' }] }));
    expect(await profileDataOf(c.member.id)).toEqual({ [f.locked]: { value: 'gold', rendered_value: '<p>gold</p>' }, [f.select]: { value: 'vim' } });
    c.drain();
    expectBadRequest(
      await doUpdateUser(c.w.ctx, c.w.as(c.admin), { user_id: c.member.id, full_name: 'New Name', profile_data: [{ id: f.date, value: 'soon' }] }),
      'Birthday is not a date',
    );
    expectBadRequest(await doUpdateUser(c.w.ctx, c.w.as(c.admin), { user_id: c.member.id, profile_data: [{ id: 4242, value: 'a' }] }), 'Field id 4242 not found.');
    expect(c.drain()).toEqual([]);
    must(await doUpdateUser(c.w.ctx, c.w.as(c.admin), { user_id: c.member.id, profile_data: [{ id: f.locked, value: null }] }));
    expect(await profileDataOf(c.member.id)).toEqual({ [f.select]: { value: 'vim' } });
    expectBadRequest(await doUpdateUser(c.w.ctx, c.w.as(c.member), { user_id: c.other.id, profile_data: [{ id: f.short, value: 'a' }] }), 'Insufficient permission');
  });

  it('deleting a field deletes its values', async () => {
    must(await setOwn(c.w, c.member, [{ id: f.short, value: 'a' }, { id: f.date, value: '2020-01-01' }]));
    must(await doDeleteProfileField(c.w.ctx, c.w.as(c.w.owner), { field_id: f.short }));
    expect(await profileDataOf(c.member.id)).toEqual({ [f.date]: { value: '2020-01-01' } });
  });

  it('removing a dropdown choice clears the values that held it, each announced with value null', async () => {
    const [kept, removed] = ['vim', 'emacs'];
    must(await setOwn(c.w, c.member, [{ id: f.select, value: removed }]));
    must(await setOwn(c.w, c.other, [{ id: f.select, value: kept }]));
    c.drain();
    const { emacs: _gone, ...rest } = CHOICES;
    must(await doUpdateProfileField(c.w.ctx, c.w.as(c.w.owner), { field_id: f.select, field_data: rest }));
    expect(await profileDataOf(c.member.id)).toEqual({});
    expect(await profileDataOf(c.other.id)).toEqual({ [f.select]: { value: kept } });
    const events = c.drain().map((p) => p.event);
    expect(events.filter((e) => e.type === 'realm_user')).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: c.member.id, custom_profile_field: { id: f.select, value: null } } },
    ]);
    expect(events.filter((e) => e.type === 'custom_profile_fields')).toHaveLength(1);
  });

  it('a new user’s realm_user add event carries an empty profile_data', async () => {
    must(await doCreateUser(c.w.ctx, c.w.as(c.w.owner), { email: 'new@example.com', password: 'long-password-1', full_name: 'New' }));
    expect(c.drain().find((p) => p.event.type === 'realm_user')!.event.person).toMatchObject({ full_name: 'New', profile_data: {} });
  });
});

/** The reference's apply_event for the custom_profile_field person form. */
function applyProfileEvents(state: Record<string, any>, events: readonly QueuedEvent[]) {
  const next = structuredClone(state);
  for (const event of events) {
    const person = event.person as { user_id: number; custom_profile_field?: { id: number; value: string | null; rendered_value?: string } };
    if (event.type !== 'realm_user' || !person.custom_profile_field) throw new Error(`unexpected event ${JSON.stringify(event)}`);
    const record = next.realm_users.find((u: { user_id: number }) => u.user_id === person.user_id);
    const { id, value, rendered_value } = person.custom_profile_field;
    if (value === null) delete record.profile_data[String(id)];
    else record.profile_data[String(id)] = rendered_value === undefined ? { value } : { value, rendered_value };
  }
  return next;
}

describe('verify_action: values', () => {
  it('realm_user custom_profile_field events applied to realm_users give a fresh register', async () => {
    must(await setOwn(c.w, c.other, [{ id: f.short, value: 'keep' }, { id: f.long, value: 'drop' }]));
    const before = await register(c.w, c.guest, { fetch_event_types: '["realm_user"]', event_types: '["realm_user"]' });
    must(await setOwn(c.w, c.member, [{ id: f.short, value: '**x**' }, { id: f.users, value: [c.other.id] }]));
    must(await setOwn(c.w, c.other, [{ id: f.long, value: null }, { id: f.short, value: 'changed' }]));
    must(await doUpdateUser(c.w.ctx, c.w.as(c.admin), { user_id: c.member.id, profile_data: [{ id: f.locked, value: 'gold' }] }));
    const applied = applyProfileEvents(before, await queued(c.w, c.guest, before.queue_id));
    const fresh = await register(c.w, c.guest, { fetch_event_types: '["realm_user"]' });
    expect(applied.realm_users).toEqual(fresh.realm_users);
  });
});
