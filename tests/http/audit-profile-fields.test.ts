/**
 * Acceptance audit of custom profile fields (API.md 2.3, 4.7, 4.12, section 8): every rule of
 * PATCH /realm/profile_fields/{id} and PATCH /users/me/profile_data, the events they send, and
 * garbage input (always a 4xx envelope, nothing half-written).
 */
import { doCreateProfileField } from '@teamchat/core';
import { afterEach, describe, expect, it } from 'vitest';
import { auditWorld, expect4xx, listen, UNAUTH } from '../helpers/audit.js';
import { must } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, type TestServer } from '../helpers/http.js';
import type { User } from '@teamchat/core';

afterEach(closeServers);

const CHOICES = { vim: { text: 'Vim', order: '1' }, emacs: { text: 'Emacs', order: '2' } };

async function fields(server: TestServer, user: User) {
  return expectSuccess(await call(server, 'GET', '/realm/profile_fields', { auth: user })).custom_fields as Array<Record<string, unknown>>;
}

async function setup() {
  const a = await auditWorld();
  const create = async (values: Record<string, string>) =>
    expectSuccess(await call(a.server, 'POST', '/realm/profile_fields', { auth: a.owner, body: form(values) })).id as number;
  const ids = {
    short: await create({ name: 'Phone', field_type: '1' }),
    paragraph: await create({ name: 'Bio', field_type: '2' }),
    select: await create({ name: 'Editor', field_type: '3', field_data: JSON.stringify(CHOICES) }),
    users: await create({ name: 'Manager', field_type: '6' }),
    github: await create({ field_type: '7', field_data: '{"subtype":"github"}' }),
    custom: await create({ name: 'Fediverse', field_type: '7', field_data: '{"subtype":"custom","url_pattern":"https://m.example/@%(username)s"}' }),
  };
  const patch = (id: number | string, values: Record<string, string>, auth: User = a.admin) =>
    call(a.server, 'PATCH', `/realm/profile_fields/${id}`, { auth, body: form(values) });
  return { ...a, ids, patch };
}

describe('PATCH /realm/profile_fields/{field_id} (API.md 4.7)', () => {
  it('updates every optional parameter, keeps the type, and sends the full list to every user', async () => {
    const { server, owner, member, guest, ids, patch } = await setup();
    const memberEvents = await listen(server, member, ['custom_profile_fields']);
    const guestEvents = await listen(server, guest, ['custom_profile_fields']);
    expect(expectSuccess(await patch(ids.short, { name: 'Mobile', hint: 'Work mobile', required: 'true', editable_by_user: 'false', use_for_user_matching: 'true', display_in_profile_summary: 'true' }))).toEqual({
      result: 'success',
      msg: '',
    });
    const after = await fields(server, member);
    expect(after.find((f) => f.id === ids.short)).toEqual({
      id: ids.short,
      name: 'Mobile',
      hint: 'Work mobile',
      type: 1,
      field_data: {},
      order: expect.any(Number),
      required: true,
      editable_by_user: false,
      display_in_profile_summary: true,
      use_for_user_matching: true,
    });
    // field_type is not a parameter of the update: the type cannot change.
    const ignored = expectSuccess(await patch(ids.short, { field_type: '2' }));
    expect(ignored.ignored_parameters_unsupported).toEqual(['field_type']);
    expect((await fields(server, owner)).find((f) => f.id === ids.short)!.type).toBe(1);
    // Booleans back to false: display_in_profile_summary and use_for_user_matching disappear.
    expectSuccess(await patch(ids.short, { display_in_profile_summary: 'false', use_for_user_matching: 'false', required: 'false', editable_by_user: 'true' }));
    const reset = (await fields(server, owner)).find((f) => f.id === ids.short)!;
    expect(reset).not.toHaveProperty('display_in_profile_summary');
    expect(reset).not.toHaveProperty('use_for_user_matching');
    expect(reset).toMatchObject({ required: false, editable_by_user: true });
    // A new dropdown choice list replaces the old one.
    const newChoices = { neovim: { text: 'Neovim', order: '1' } };
    expectSuccess(await patch(ids.select, { field_data: JSON.stringify(newChoices) }));
    expect((await fields(server, owner)).find((f) => f.id === ids.select)!.field_data).toEqual(newChoices);

    for (const events of [memberEvents, guestEvents]) {
      const received = await events();
      expect(received).toHaveLength(4);
      for (const event of received) expect(Object.keys(event).sort()).toEqual(['fields', 'type']);
      expect(received[0].fields.find((f: { id: number }) => f.id === ids.short)).toMatchObject({ name: 'Mobile', display_in_profile_summary: true });
      expect(received[3].fields).toEqual(await fields(server, owner));
    }
  });

  it('is for administrators only; unknown and other realms’ fields are BAD_REQUEST', async () => {
    const { world, server, owner, moderator, member, guest, other, ids, patch } = await setup();
    for (const user of [moderator, member, guest]) {
      expectError(await patch(ids.short, { name: 'X' }, user), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    }
    expectError(await call(server, 'PATCH', `/realm/profile_fields/${ids.short}`, { body: form({ name: 'X' }) }), 401, 'UNAUTHORIZED', UNAUTH);
    expectSuccess(await patch(ids.short, { name: 'By owner' }, owner));
    expectError(await patch(999, { name: 'X' }), 400, 'BAD_REQUEST', 'Field id 999 not found.');
    const foreign = must(await doCreateProfileField(world.ctx, other, { name: 'Foreign', field_type: 1 })).id;
    expectError(await patch(foreign, { name: 'X' }), 400, 'BAD_REQUEST', `Field id ${foreign} not found.`);
    expect((await fields(server, owner)).map((f) => f.name)).not.toContain('X');
  });

  it('refuses a name used by another field, and blank or over-long names and hints', async () => {
    const { server, owner, ids, patch } = await setup();
    expectError(await patch(ids.short, { name: 'Editor' }), 400, 'BAD_REQUEST', 'A field with that label already exists.');
    expectSuccess(await patch(ids.short, { name: 'Phone' })); // its own name is not "another field's"
    expectError(await patch(ids.short, { name: '   ' }), 400, 'BAD_REQUEST', 'Label cannot be blank.');
    expectError(await patch(ids.short, { name: 'x'.repeat(41) }), 400, 'BAD_REQUEST', 'name is too long (limit: 40 characters)');
    expectError(await patch(ids.short, { hint: 'x'.repeat(81) }), 400, 'BAD_REQUEST', 'hint is too long (limit: 80 characters)');
    expectSuccess(await patch(ids.short, { name: 'x'.repeat(40), hint: 'y'.repeat(80) }));
    // A failed request changes nothing, even the parameters that were valid.
    expectError(await patch(ids.short, { hint: 'new hint', name: 'Editor' }), 400, 'BAD_REQUEST', 'A field with that label already exists.');
    expect((await fields(server, owner)).find((f) => f.id === ids.short)!.hint).toBe('y'.repeat(80));
  });

  it('allows at most 2 summary fields; Users cannot be one, Paragraph can (FL 476)', async () => {
    const { server, owner, ids, patch } = await setup();
    expectError(await patch(ids.users, { display_in_profile_summary: 'true' }), 400, 'BAD_REQUEST', 'Field type not supported for display in profile summary.');
    expectSuccess(await patch(ids.paragraph, { display_in_profile_summary: 'true' }));
    expectSuccess(await patch(ids.short, { display_in_profile_summary: 'true' }));
    expectSuccess(await patch(ids.short, { display_in_profile_summary: 'true' })); // re-setting one of the 2 is fine
    expectError(await patch(ids.select, { display_in_profile_summary: 'true' }), 400, 'BAD_REQUEST', 'Only 2 custom profile fields can be displayed in the profile summary.');
    expectError(
      await call(server, 'POST', '/realm/profile_fields', { auth: owner, body: form({ name: 'Third', field_type: '1', display_in_profile_summary: 'true' }) }),
      400,
      'BAD_REQUEST',
      'Only 2 custom profile fields can be displayed in the profile summary.',
    );
    expect((await fields(server, owner)).filter((f) => f.display_in_profile_summary).map((f) => f.id)).toEqual([ids.paragraph, ids.short].sort((x, y) => x - y));
    expectSuccess(await patch(ids.short, { display_in_profile_summary: 'false' }));
    expectSuccess(await patch(ids.select, { display_in_profile_summary: 'true' }));
  });

  it('a default external account field keeps its name, hint and field_data; other settings change', async () => {
    const { server, owner, ids, patch } = await setup();
    const before = (await fields(server, owner)).find((f) => f.id === ids.github)!;
    for (const values of [{ name: 'GH' }, { hint: 'Your handle' }, { field_data: '{"subtype":"gitlab"}' }, { field_data: '{"subtype":"github"}', required: 'true' }] as Record<string, string>[]) {
      expectError(await patch(ids.github, values), 400, 'BAD_REQUEST', 'Default custom field cannot be updated.');
    }
    expect((await fields(server, owner)).find((f) => f.id === ids.github)).toEqual(before);
    expectSuccess(await patch(ids.github, { required: 'true', editable_by_user: 'false', display_in_profile_summary: 'true', use_for_user_matching: 'true' }));
    // A custom external account field may change all three.
    expectSuccess(await patch(ids.custom, { name: 'Mastodon', hint: 'Handle', field_data: '{"subtype":"custom","url_pattern":"https://social.example/@%(username)s"}' }));
    expectError(await patch(ids.custom, { field_data: '{"subtype":"custom","url_pattern":"https://x.example/"}' }), 400, 'BAD_REQUEST', "URL pattern must contain '%(username)s'.");
  });

  it('use_for_user_matching is only for Short Text and External Account fields', async () => {
    const { ids, patch } = await setup();
    for (const id of [ids.paragraph, ids.select, ids.users]) {
      expectError(await patch(id, { use_for_user_matching: 'true' }), 400, 'BAD_REQUEST', 'Only text and external account fields can be used for user matching.');
    }
    expectSuccess(await patch(ids.short, { use_for_user_matching: 'true' }));
    expectSuccess(await patch(ids.custom, { use_for_user_matching: 'true' }));
  });

  it('accepts field_data as a JSON object or as the JSON string the reference serialises', async () => {
    const { server, owner, ids, patch } = await setup();
    const choices = { a: { text: 'A', order: '1' } };
    expectSuccess(await patch(ids.select, { field_data: JSON.stringify(JSON.stringify(choices)) }));
    expect((await fields(server, owner)).find((f) => f.id === ids.select)!.field_data).toEqual(choices);
  });

  it('garbage input: always a 4xx envelope and nothing written', async () => {
    const { server, owner, ids, patch } = await setup();
    const before = await fields(server, owner);
    expectError(await patch(ids.select, { field_data: '{' }), 400, 'BAD_REQUEST', 'field_data is not valid JSON');
    expectError(await patch(ids.select, { field_data: '[1]' }), 400, 'BAD_REQUEST', 'field_data is not a dict');
    expectError(await patch(ids.select, { field_data: '{}' }), 400, 'BAD_REQUEST', 'Field must have at least one choice.');
    expectError(await patch(ids.select, { field_data: '{"a":{"text":"A","order":"1"},"b":{"text":"A","order":"2"}}' }), 400, 'BAD_REQUEST', 'Field must not have duplicate choices.');
    expectError(await patch(ids.short, { required: 'yes' }), 400, 'BAD_REQUEST', 'required is not valid JSON');
    expectError(await patch(ids.short, { required: '1' }), 400, 'BAD_REQUEST', 'required is not a boolean');
    expectError(await patch(ids.short, { display_in_profile_summary: '"true"' }), 400, 'BAD_REQUEST', 'display_in_profile_summary is not a boolean');
    expectError(await patch('abc', { name: 'X' }), 400, 'BAD_REQUEST', 'field_id is not an integer');
    for (const values of [{ field_data: 'null' }, { field_data: '{"x":null}' }, { field_data: '{"x":{"text":1,"order":"1"}}' }, { editable_by_user: 'null' }] as Record<string, string>[]) {
      expect4xx(await patch(ids.select, values));
    }
    expect4xx(await patch('-1', { name: 'X' }));
    expect4xx(await patch('99999999999999999999', { name: 'X' }));
    expect(await fields(server, owner)).toEqual(before);
  });
});

describe('PATCH /users/me/profile_data (API.md 4.12)', () => {
  it('sets, replaces and removes values; other users get a realm_user update per field', async () => {
    const { server, owner, member, ids } = await setup();
    const ownerEvents = await listen(server, owner, ['realm_user']);
    const data = [
      { id: ids.short, value: '**555**' },
      { id: ids.select, value: 'vim' },
      { id: ids.users, value: [owner.id] },
      { id: ids.github, value: 'octocat' },
    ];
    expect(expectSuccess(await call(server, 'PATCH', '/users/me/profile_data', { auth: member, body: form({ data: JSON.stringify(data) }) }))).toEqual({ result: 'success', msg: '' });
    const read = async () =>
      expectSuccess(await call(server, 'GET', `/users/${member.id}`, { auth: owner, query: { include_custom_profile_fields: 'true' } })).user.profile_data;
    expect(await read()).toEqual({
      [ids.short]: { value: '**555**', rendered_value: '<p><strong>555</strong></p>' },
      [ids.select]: { value: 'vim' },
      [ids.users]: { value: `[${owner.id}]` },
      [ids.github]: { value: 'octocat' },
    });
    expect(await ownerEvents()).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: member.id, custom_profile_field: { id: ids.short, value: '**555**', rendered_value: '<p><strong>555</strong></p>' } } },
      { type: 'realm_user', op: 'update', person: { user_id: member.id, custom_profile_field: { id: ids.select, value: 'vim' } } },
      { type: 'realm_user', op: 'update', person: { user_id: member.id, custom_profile_field: { id: ids.users, value: `[${owner.id}]` } } },
      { type: 'realm_user', op: 'update', person: { user_id: member.id, custom_profile_field: { id: ids.github, value: 'octocat' } } },
    ]);
    // null removes a value, and the event says so with value null.
    expectSuccess(await call(server, 'PATCH', '/users/me/profile_data', { auth: member, body: form({ data: JSON.stringify([{ id: ids.select, value: null }]) }) }));
    expect(await read()).not.toHaveProperty(String(ids.select));
    expect(await ownerEvents()).toEqual([{ type: 'realm_user', op: 'update', person: { user_id: member.id, custom_profile_field: { id: ids.select, value: null } } }]);
  });

  it('refuses fields the organization does not let users edit, but not for administrators', async () => {
    const { server, admin, member, ids, patch } = await setup();
    expectSuccess(await patch(ids.short, { editable_by_user: 'false' }));
    const body = form({ data: JSON.stringify([{ id: ids.short, value: 'mine' }]) });
    expectError(
      await call(server, 'PATCH', '/users/me/profile_data', { auth: member, body }),
      400,
      'BAD_REQUEST',
      'You are not allowed to change this field. Contact an administrator to update it.',
    );
    expectSuccess(await call(server, 'PATCH', '/users/me/profile_data', { auth: admin, body: form({ data: JSON.stringify([{ id: ids.short, value: 'mine' }]) }) }));
    // Administrators may edit the field for any user regardless.
    expectSuccess(await call(server, 'PATCH', `/users/${member.id}`, { auth: admin, body: form({ profile_data: JSON.stringify([{ id: ids.short, value: 'set by admin' }]) }) }));
  });

  it('unknown and other realms’ field IDs are BAD_REQUEST and nothing of the request is written', async () => {
    const { world, server, owner, member, other, ids } = await setup();
    const foreign = must(await doCreateProfileField(world.ctx, other, { name: 'Foreign', field_type: 1 })).id;
    const send = (data: unknown) => call(server, 'PATCH', '/users/me/profile_data', { auth: member, body: form({ data: JSON.stringify(data) }) });
    expectError(await send([{ id: 999, value: 'x' }]), 400, 'BAD_REQUEST', 'Field id 999 not found.');
    expectError(await send([{ id: foreign, value: 'x' }]), 400, 'BAD_REQUEST', `Field id ${foreign} not found.`);
    expectError(await send([{ id: ids.short, value: 'first' }, { id: 999, value: 'x' }]), 400, 'BAD_REQUEST', 'Field id 999 not found.');
    expectError(await send([{ id: ids.short, value: 'first' }, { id: ids.select, value: 'nano' }]), 400, 'BAD_REQUEST', "'nano' is not a valid choice for 'Editor'.");
    const read = expectSuccess(await call(server, 'GET', `/users/${member.id}`, { auth: owner, query: { include_custom_profile_fields: 'true' } }));
    expect(read.user.profile_data).toEqual({});
  });

  it('checks each value against its field type', async () => {
    const { server, owner, member, ids } = await setup();
    const send = (data: unknown) => call(server, 'PATCH', '/users/me/profile_data', { auth: member, body: form({ data: JSON.stringify(data) }) });
    expectError(await send([{ id: ids.short, value: 'x'.repeat(51) }]), 400, 'BAD_REQUEST', 'Phone is too long (limit: 50 characters)');
    expectError(await send([{ id: ids.paragraph, value: 'x'.repeat(501) }]), 400, 'BAD_REQUEST', 'Bio is too long (limit: 500 characters)');
    expectSuccess(await send([{ id: ids.paragraph, value: 'x'.repeat(500) }]));
    expectError(await send([{ id: ids.users, value: [424242] }]), 400, 'BAD_REQUEST', 'Invalid user ID: 424242');
    expectError(await send([{ id: ids.users, value: 'x' }]), 400, 'BAD_REQUEST', 'Manager is not a list');
    expectError(await send([{ id: ids.short, value: [owner.id] }]), 400, 'BAD_REQUEST', 'Phone is not a string');
    expectError(await send([{ id: ids.select, value: 'Vim' }]), 400, 'BAD_REQUEST', "'Vim' is not a valid choice for 'Editor'.");
  });

  it('garbage input: always a 4xx envelope', async () => {
    const { server, member, guest, ids } = await setup();
    const raw = (data: string, auth: User | null = member) => call(server, 'PATCH', '/users/me/profile_data', { auth: auth ?? undefined, body: form({ data }) });
    expectError(await raw('['), 400, 'BAD_REQUEST', 'data is not valid JSON');
    expectError(await raw('{}'), 400, 'BAD_REQUEST', 'data is not a list');
    expectError(await raw('[1]'), 400, 'BAD_REQUEST', 'data[0] is not a dict');
    expectError(await raw('[{"value":"x"}]'), 400, 'BAD_REQUEST', 'data[0]["id"] field is missing');
    expectError(await raw(`[{"id":${ids.short}}]`), 400, 'BAD_REQUEST', 'data[0]["value"] field is missing');
    expectError(await raw(`[{"id":"${ids.short}","value":"x"}]`), 400, 'BAD_REQUEST', 'data[0]["id"] is not an integer');
    for (const data of [`[{"id":${ids.short},"value":5}]`, `[{"id":${ids.short},"value":{"a":1}}]`, `[{"id":${ids.users},"value":["a"]}]`, 'null', '"x"', `[{"id":1e400,"value":"x"}]`]) {
      expect4xx(await raw(data));
    }
    expectError(await call(server, 'PATCH', '/users/me/profile_data', { auth: member }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'data' argument");
    expectError(await raw(`[{"id":${ids.short},"value":"x"}]`, null), 401, 'UNAUTHORIZED', UNAUTH);
    // Guests edit their own editable fields like members.
    expectSuccess(await raw(`[{"id":${ids.short},"value":"g"}]`, guest));
  });
});
