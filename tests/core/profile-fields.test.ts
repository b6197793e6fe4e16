/** Custom profile field definitions: create, update, delete, reorder, their events and register. */
import { doCreateProfileField, doDeleteProfileField, doReorderProfileFields, doUpdateProfileField, FIELD_TYPES } from '@teamchat/core/internal';
import { beforeEach, describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { type ChannelWorld, channelWorld, ids, queued, recipientsOf, register } from './channel-helpers.js';
import { expectBadRequest, expectError, secondRealm } from './fixtures.js';
import { addField, CHOICES, fields } from './profile-field-helpers.js';

let c: ChannelWorld;
beforeEach(async () => {
  c = await channelWorld();
});

const create = (params: Record<string, unknown>, user = c.w.owner) => doCreateProfileField.fromTransport(c.w.ctx, c.w.as(user), params);
const update = (params: Record<string, unknown>, user = c.w.owner) => doUpdateProfileField.fromTransport(c.w.ctx, c.w.as(user), params);

describe('POST /realm/profile_fields', () => {
  it('creates a field in last place; GET and register show the record, events go to every active user', async () => {
    const phone = await addField(c.w, 'Phone', 1, { hint: 'Your number' });
    c.drain();
    const editor = must(
      await create({ name: '  Editor ', hint: '', field_type: '3', field_data: JSON.stringify(CHOICES), display_in_profile_summary: 'true', required: 'true' }),
    ).id;
    expect(await fields(c.w, c.guest)).toEqual([
      { id: phone, name: 'Phone', type: 1, hint: 'Your number', field_data: {}, order: phone, required: false, editable_by_user: true },
      {
        id: editor,
        name: 'Editor',
        type: 3,
        hint: '',
        field_data: CHOICES,
        order: editor,
        required: true,
        editable_by_user: true,
        display_in_profile_summary: true,
      },
    ]);
    const events = c.drain();
    expect(recipientsOf(events, 'custom_profile_fields')).toEqual([ids(c.w.owner, c.admin, c.moderator, c.member, c.other, c.guest, c.bot)]);
    expect(events[0]!.event).toEqual({ type: 'custom_profile_fields', fields: await fields(c.w) });
    const state = await register(c.w, c.member, { fetch_event_types: '["custom_profile_fields"]' });
    expect(state.custom_profile_fields).toEqual(await fields(c.w));
    expect(state.custom_profile_field_types).toEqual(FIELD_TYPES);
    expect(Object.keys(FIELD_TYPES)).toEqual(['SHORT_TEXT', 'LONG_TEXT', 'SELECT', 'DATE', 'URL', 'USER', 'EXTERNAL_ACCOUNT', 'PRONOUNS']);
  });

  it('field_data may be an object; use_for_user_matching appears only when true', async () => {
    const id = must(await create({ name: 'GitLab', field_type: 7, field_data: { subtype: 'custom', url_pattern: 'https://gl.example/%(username)s' }, use_for_user_matching: true })).id;
    const [field] = await fields(c.w);
    expect(field).toMatchObject({ id, field_data: { subtype: 'custom', url_pattern: 'https://gl.example/%(username)s' }, use_for_user_matching: true });
  });

  it('a default external account field takes its label and hint from the provider', async () => {
    must(await create({ name: 'ignored', hint: 'ignored', field_type: 7, field_data: '{"subtype":"github"}' }));
    expect((await fields(c.w))[0]).toMatchObject({ name: 'GitHub username', hint: '', field_data: { subtype: 'github' } });
    expectBadRequest(await create({ field_type: 7, field_data: '{"subtype":"github"}' }), 'A field with that label already exists.');
  });

  it('refuses what the rules forbid, and publishes nothing', async () => {
    await addField(c.w, 'Phone', 1, { display_in_profile_summary: true });
    await addField(c.w, 'Pronouns', 8, { display_in_profile_summary: true });
    c.drain();
    for (const user of [c.moderator, c.member, c.guest]) {
      expectError(await create({ name: 'X', field_type: 1 }, user), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    }
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'Phone', field_type: 1 }, 'A field with that label already exists.'],
      [{ name: '   ', field_type: 1 }, 'Label cannot be blank.'],
      [{ field_type: 1 }, 'Label cannot be blank.'],
      [{ name: 'x'.repeat(41), field_type: 1 }, 'name is too long (limit: 40 characters)'],
      [{ name: 'X', hint: 'h'.repeat(81), field_type: 1 }, 'hint is too long (limit: 80 characters)'],
      [{ name: 'X', field_type: 9 }, 'Invalid field type.'],
      [{ name: 'X', field_type: 0 }, 'Invalid field type.'],
      [{ name: 'X', field_type: 'one' }, 'field_type is not valid JSON'],
      [{ name: 'X', field_type: '"1"' }, 'field_type is not an integer'],
      [{ name: 'X', field_type: 1, display_in_profile_summary: true }, 'Only 2 custom profile fields can be displayed in the profile summary.'],
      [{ name: 'X', field_type: 4, use_for_user_matching: true }, 'Only text and external account fields can be used for user matching.'],
      [{ name: 'X', field_type: 3 }, 'Field must have at least one choice.'],
      [{ name: 'X', field_type: 3, field_data: '[1]' }, 'field_data is not a dict'],
      [{ name: 'X', field_type: 3, field_data: '{bad' }, 'field_data is not valid JSON'],
      [{ name: 'X', field_type: 3, field_data: '{" ":{"text":"A","order":"1"}}' }, "'value' cannot be blank."],
      [{ name: 'X', field_type: 3, field_data: '{"a":{"text":"A"}}' }, 'order key is missing from field_data["a"]'],
      [{ name: 'X', field_type: 3, field_data: '{"a":{"text":"","order":"1"}}' }, 'field_data["a"]["text"] cannot be blank'],
      [{ name: 'X', field_type: 3, field_data: '{"a":{"text":"A","order":"1"},"b":{"text":"A","order":"2"}}' }, 'Field must not have duplicate choices.'],
      [{ name: 'X', field_type: 7, field_data: '{}' }, 'subtype key is missing from field_data'],
      [{ name: 'X', field_type: 7, field_data: '{"subtype":"myspace"}' }, 'Invalid external account type'],
      [{ name: 'X', field_type: 7, field_data: '{"subtype":"custom"}' }, 'Custom external account must define URL pattern'],
      [{ name: 'X', field_type: 7, field_data: '{"subtype":"custom","url_pattern":"https://x.example/"}' }, "URL pattern must contain '%(username)s'."],
      [{ name: 'X', field_type: 7, field_data: '{"subtype":"custom","url_pattern":"nope%(username)s"}' }, 'field_data["url_pattern"] is not a URL'],
    ];
    for (const [params, msg] of cases) {
      const result = await create(params);
      expect(result.isErr() && result.error.msg, JSON.stringify(params)).toBe(msg);
      expectBadRequest(result, msg);
    }
    expectError(await create({ name: 'X' }), 'REQUEST_VARIABLE_MISSING', "Missing 'field_type' argument", 400, { var_name: 'field_type' });
    expect(c.drain()).toEqual([]);
  });

  it('the Users type is never in the summary; Paragraph is (FL 476)', async () => {
    expectBadRequest(await create({ name: 'Manager', field_type: 6, display_in_profile_summary: true }), 'Field type not supported for display in profile summary.');
    must(await create({ name: 'Bio', field_type: 2, display_in_profile_summary: true }));
  });
});

describe('PATCH /realm/profile_fields/{field_id}', () => {
  it('changes what is given and keeps the rest; the type never changes', async () => {
    const id = await addField(c.w, 'Editor', 3, { field_data: CHOICES });
    c.drain();
    must(await update({ field_id: String(id), name: 'Favourite editor', required: 'true', field_type: '1', editable_by_user: false }));
    expect((await fields(c.w))[0]).toEqual({
      id,
      name: 'Favourite editor',
      type: 3,
      hint: '',
      field_data: CHOICES,
      order: id,
      required: true,
      editable_by_user: false,
    });
    expect(c.drain().map((p) => p.event)).toEqual([{ type: 'custom_profile_fields', fields: await fields(c.w) }]);
    must(await update({ field_id: id, field_data: { a: { text: 'A', order: '1' } } }));
    expect((await fields(c.w))[0]!.field_data).toEqual({ a: { text: 'A', order: '1' } });
  });

  it('a field already in the summary does not count against itself; a third is refused', async () => {
    const a = await addField(c.w, 'A', 1, { display_in_profile_summary: true });
    const b = await addField(c.w, 'B', 1);
    const d = await addField(c.w, 'D', 1);
    must(await update({ field_id: a, display_in_profile_summary: true }));
    must(await update({ field_id: b, display_in_profile_summary: true }));
    expectBadRequest(await update({ field_id: d, display_in_profile_summary: true }), 'Only 2 custom profile fields can be displayed in the profile summary.');
    must(await update({ field_id: a, display_in_profile_summary: false }));
    must(await update({ field_id: d, display_in_profile_summary: true }));
    expect((await fields(c.w)).map((f) => f.display_in_profile_summary)).toEqual([undefined, true, true]);
  });

  it('refuses unknown fields, duplicates, default field relabels, non-admins, other realms; nothing published', async () => {
    const phone = await addField(c.w, 'Phone', 1);
    await addField(c.w, 'Email', 1);
    const users = await addField(c.w, 'Manager', 6);
    const github = must(await create({ field_type: 7, field_data: { subtype: 'github' } })).id;
    const other = await secondRealm(c.w.ctx);
    c.drain();
    expectError(await update({ field_id: phone, name: 'X' }, c.moderator), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    expectBadRequest(await update({ field_id: 999, name: 'X' }), 'Field id 999 not found.');
    expectError(await doUpdateProfileField(c.w.ctx, { realm: other.realm, user: other.owner }, { field_id: phone, name: 'X' }), 'BAD_REQUEST', `Field id ${phone} not found.`);
    expectBadRequest(await update({ field_id: phone, name: 'Email' }), 'A field with that label already exists.');
    expectBadRequest(await update({ field_id: phone, name: ' ' }), 'Label cannot be blank.');
    expectBadRequest(await update({ field_id: users, display_in_profile_summary: true }), 'Field type not supported for display in profile summary.');
    expectBadRequest(await update({ field_id: users, use_for_user_matching: true }), 'Only text and external account fields can be used for user matching.');
    for (const change of [{ name: 'Hub' }, { hint: 'h' }, { field_data: { subtype: 'gitlab' } }]) {
      expectBadRequest(await update({ field_id: github, ...change }), 'Default custom field cannot be updated.');
    }
    expectBadRequest(await update({ field_id: 'abc' }), 'field_id is not an integer');
    expect(c.drain()).toEqual([]);
    // Only the summary and required flags of a default field may change.
    must(await update({ field_id: github, required: true, display_in_profile_summary: true }));
    must(await update({ field_id: phone, name: 'Phone' }));
  });
});

describe('DELETE and reorder', () => {
  it('DELETE removes the field (and its values); unknown IDs and non-admins are refused', async () => {
    const a = await addField(c.w, 'A', 1);
    const b = await addField(c.w, 'B', 1);
    c.drain();
    expectError(await doDeleteProfileField(c.w.ctx, c.w.as(c.member), { field_id: a }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    expectBadRequest(await doDeleteProfileField(c.w.ctx, c.w.as(c.admin), { field_id: 77 }), 'Field id 77 not found.');
    expect(c.drain()).toEqual([]);
    must(await doDeleteProfileField(c.w.ctx, c.w.as(c.admin), { field_id: a }));
    expect((await fields(c.w)).map((f) => f.id)).toEqual([b]);
    expect(c.drain().map((p) => p.event)).toEqual([{ type: 'custom_profile_fields', fields: await fields(c.w) }]);
  });

  it('PATCH /realm/profile_fields reorders by a complete list of IDs', async () => {
    const a = await addField(c.w, 'A', 1);
    const b = await addField(c.w, 'B', 1);
    const d = await addField(c.w, 'D', 1);
    c.drain();
    const reorder = (order: unknown, user = c.w.owner) => doReorderProfileFields.fromTransport(c.w.ctx, c.w.as(user), { order: order });
    expectError(await reorder([d, b, a], c.member), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    for (const order of [[d, b], [d, b, a, 99], [d, b, b], [d, d, b, a]]) expectBadRequest(await reorder(order), 'Invalid order mapping.');
    expectBadRequest(await reorder(['x']), 'order[0] is not an integer');
    expectError(await doReorderProfileFields.fromTransport(c.w.ctx, c.w.as(c.w.owner), {}), 'REQUEST_VARIABLE_MISSING', "Missing 'order' argument", 400, { var_name: 'order' });
    expect(c.drain()).toEqual([]);
    must(await reorder([d, a, b]));
    expect((await fields(c.w)).map((f) => [f.id, f.order])).toEqual([[d, 0], [a, 1], [b, 2]]);
    expect(c.drain().map((p) => p.event)).toEqual([{ type: 'custom_profile_fields', fields: await fields(c.w) }]);
    // A field created later still comes last.
    const e = await addField(c.w, 'E', 1);
    expect((await fields(c.w)).map((f) => f.id)).toEqual([d, a, b, e]);
  });

  it('fields of another realm are invisible', async () => {
    await addField(c.w, 'A', 1);
    const other = await secondRealm(c.w.ctx);
    expect((await register(c.w, c.member, { fetch_event_types: '["custom_profile_fields"]' })).custom_profile_fields).toHaveLength(1);
    const { getProfileFields } = await import('@teamchat/core/internal');
    expect(must(await getProfileFields(c.w.ctx, { realm: other.realm, user: other.owner }, {})).custom_fields).toEqual([]);
  });
});

describe('verify_action: definitions', () => {
  it('custom_profile_fields events applied to a register snapshot give a fresh one', async () => {
    const before = await register(c.w, c.member, { fetch_event_types: '["custom_profile_fields"]' });
    const a = await addField(c.w, 'A', 1);
    const b = await addField(c.w, 'B', 3, { field_data: CHOICES });
    must(await update({ field_id: a, hint: 'new' }));
    must(await doReorderProfileFields(c.w.ctx, c.w.as(c.admin), { order: [b, a] }));
    must(await doDeleteProfileField(c.w.ctx, c.w.as(c.admin), { field_id: a }));
    let state = before.custom_profile_fields;
    for (const event of await queued(c.w, c.member, before.queue_id)) {
      expect(event.type).toBe('custom_profile_fields');
      state = event.fields;
    }
    const after = await register(c.w, c.member, { fetch_event_types: '["custom_profile_fields"]' });
    expect(state).toEqual(after.custom_profile_fields);
    expect(after.custom_profile_fields).toHaveLength(1);
  });
});
