/** Custom profile fields over HTTP: definitions, reorder, users' values and profile_data in GET /users. */
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, startServer } from '../helpers/http.js';

afterEach(closeServers);

const CHOICES = { vim: { text: 'Vim', order: '1' }, emacs: { text: 'Emacs', order: '2' } };

async function setup() {
  const world = await makeWorld();
  const member = await world.addUser({ email: 'member@example.com', fullName: 'Mel Member' });
  const server = await startServer(world);
  return { server, owner: world.owner, member };
}

describe('custom profile fields over HTTP', () => {
  it('create, list, update, reorder and delete fields', async () => {
    const { server, owner, member } = await setup();
    const create = (values: Record<string, string>) => call(server, 'POST', '/realm/profile_fields', { auth: owner, body: form(values) });
    const phone = expectSuccess(await create({ name: 'Phone', hint: 'Work phone', field_type: '1' }));
    expect(Object.keys(phone).sort()).toEqual(['id', 'msg', 'result']);
    const editor = expectSuccess(await create({ name: 'Editor', field_type: '3', field_data: JSON.stringify(CHOICES), display_in_profile_summary: 'true' })).id;
    const list = expectSuccess(await call(server, 'GET', '/realm/profile_fields', { auth: member })).custom_fields;
    expect(list).toEqual([
      { id: phone.id, name: 'Phone', type: 1, hint: 'Work phone', field_data: {}, order: phone.id, required: false, editable_by_user: true },
      { id: editor, name: 'Editor', type: 3, hint: '', field_data: CHOICES, order: editor, required: false, editable_by_user: true, display_in_profile_summary: true },
    ]);
    expectSuccess(await call(server, 'PATCH', `/realm/profile_fields/${phone.id}`, { auth: owner, body: form({ name: 'Mobile', required: 'true' }) }));
    expectSuccess(await call(server, 'PATCH', '/realm/profile_fields', { auth: owner, body: form({ order: JSON.stringify([editor, phone.id]) }) }));
    const reordered = expectSuccess(await call(server, 'GET', '/realm/profile_fields', { auth: owner })).custom_fields;
    expect(reordered.map((f: { name: string; order: number }) => [f.name, f.order])).toEqual([['Editor', 0], ['Mobile', 1]]);
    expectSuccess(await call(server, 'DELETE', `/realm/profile_fields/${editor}`, { auth: owner }));
    expect(expectSuccess(await call(server, 'GET', '/realm/profile_fields', { auth: owner })).custom_fields).toHaveLength(1);
  });

  it('answers errors with their codes', async () => {
    const { server, owner, member } = await setup();
    expectError(await call(server, 'GET', '/realm/profile_fields'), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
    expectError(
      await call(server, 'POST', '/realm/profile_fields', { auth: member, body: form({ name: 'X', field_type: '1' }) }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    expectError(await call(server, 'POST', '/realm/profile_fields', { auth: owner, body: form({ name: 'X', field_type: '3', field_data: '{oops' }) }), 400, 'BAD_REQUEST', 'field_data is not valid JSON');
    expectError(await call(server, 'POST', '/realm/profile_fields', { auth: owner, body: form({ name: 'X', field_type: '42' }) }), 400, 'BAD_REQUEST', 'Invalid field type.');
    expectError(await call(server, 'PATCH', '/realm/profile_fields/999', { auth: owner, body: form({ name: 'Y' }) }), 400, 'BAD_REQUEST', 'Field id 999 not found.');
    expectError(await call(server, 'DELETE', '/realm/profile_fields/999', { auth: owner }), 400, 'BAD_REQUEST', 'Field id 999 not found.');
    expectError(await call(server, 'PATCH', '/realm/profile_fields', { auth: owner, body: form({ order: '[1]' }) }), 400, 'BAD_REQUEST', 'Invalid order mapping.');
    expectError(
      await call(server, 'PATCH', '/users/me/profile_data', { auth: member, body: form({ data: '[{"id":5,"value":"x"}]' }) }),
      400,
      'BAD_REQUEST',
      'Field id 5 not found.',
    );
  });

  it('values through /users/me/profile_data and PATCH /users/{id}, read back by GET /users', async () => {
    const { server, owner, member } = await setup();
    const short = expectSuccess(await call(server, 'POST', '/realm/profile_fields', { auth: owner, body: form({ name: 'Phone', field_type: '1' }) })).id;
    const users = expectSuccess(await call(server, 'POST', '/realm/profile_fields', { auth: owner, body: form({ name: 'Manager', field_type: '6', editable_by_user: 'false' }) })).id;
    expectSuccess(await call(server, 'PATCH', '/users/me/profile_data', { auth: member, body: form({ data: JSON.stringify([{ id: short, value: '*555*' }]) }) }));
    expectError(
      await call(server, 'PATCH', '/users/me/profile_data', { auth: member, body: form({ data: JSON.stringify([{ id: users, value: [owner.id] }]) }) }),
      400,
      'BAD_REQUEST',
      'You are not allowed to change this field. Contact an administrator to update it.',
    );
    expectSuccess(
      await call(server, 'PATCH', `/users/${member.id}`, { auth: owner, body: form({ profile_data: JSON.stringify([{ id: users, value: [owner.id] }]) }) }),
    );
    const members = expectSuccess(await call(server, 'GET', '/users', { auth: member, query: { include_custom_profile_fields: 'true' } })).members;
    expect(members.find((m: { user_id: number }) => m.user_id === member.id).profile_data).toEqual({
      [short]: { value: '*555*', rendered_value: '<p><em>555</em></p>' },
      [users]: { value: `[${owner.id}]` },
    });
    expect(members.find((m: { user_id: number }) => m.user_id === owner.id).profile_data).toEqual({});
    const plain = expectSuccess(await call(server, 'GET', '/users', { auth: member })).members;
    expect(plain[0]).not.toHaveProperty('profile_data');
    expectError(await call(server, 'PATCH', '/users/me/profile_data', { auth: member, body: form({}) }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'data' argument");
  });
});
