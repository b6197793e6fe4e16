/** Code playgrounds: POST /realm/playgrounds, DELETE /realm/playgrounds/{id}, the register section and its events. */
import { doAddPlayground, doRemovePlayground } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { channelWorld, ids, queued, recipientsOf, register } from './channel-helpers.js';
import { expectBadRequest, expectError, secondRealm } from './fixtures.js';

const PYTHON = { name: 'Python playground', pygments_language: 'Python', url_template: 'https://python.example/?code={code}' };

describe('code playgrounds', () => {
  it('administrators add and remove playgrounds; everyone gets the list in register and in events', async () => {
    const { w, admin, member, guest, drain } = await channelWorld();
    const before = await register(w, member, { fetch_event_types: '["realm_playgrounds"]' });
    expect(before.realm_playgrounds).toEqual([]);
    drain();
    const { id } = must(await doAddPlayground(w.ctx, w.as(admin), { ...PYTHON, name: '  Python playground ' }));
    const expected = [{ id, ...PYTHON }];
    expect((await register(w, guest)).realm_playgrounds).toEqual(expected);
    const events = (await queued(w, member, before.queue_id)).filter((e) => e.type === 'realm_playgrounds');
    expect(events).toEqual([{ id: expect.any(Number), type: 'realm_playgrounds', realm_playgrounds: expected }]);
    expect(recipientsOf(drain(), 'realm_playgrounds')[0]).toEqual(expect.arrayContaining(ids(w.owner, admin, member, guest)));
    must(await doRemovePlayground(w.ctx, w.as(admin), { playground_id: id }));
    expect((await register(w, member)).realm_playgrounds).toEqual([]);
    expect(drain().find((p) => p.event.type === 'realm_playgrounds')?.event).toEqual({ type: 'realm_playgrounds', realm_playgrounds: [] });
  });

  it('needs an administrator', async () => {
    const { w, admin, moderator } = await channelWorld();
    expectError(await doAddPlayground(w.ctx, w.as(moderator), PYTHON), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    const { id } = must(await doAddPlayground(w.ctx, w.as(admin), PYTHON));
    expectError(await doRemovePlayground(w.ctx, w.as(moderator), { playground_id: id }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
  });

  it('checks the fields as the reference’s full_clean, with errors per field', async () => {
    const { w, admin } = await channelWorld();
    const add = (patch: Record<string, string>) => doAddPlayground(w.ctx, w.as(admin), { ...PYTHON, ...patch });
    expectError(await add({ pygments_language: 'py<thon' }), 'BAD_REQUEST', 'Invalid characters in pygments language', 400, {
      errors: { pygments_language: ['Invalid characters in pygments language'] },
    });
    const ONLY_CODE = '"code" should be the only variable present in the URL template';
    expectError(await add({ url_template: 'https://x/{code' }), 'BAD_REQUEST', 'Invalid URL template.', 400, { errors: { url_template: ['Invalid URL template.'] } });
    expectError(await add({ url_template: 'https://x/?c={code}&l={lang}' }), 'BAD_REQUEST', ONLY_CODE, 400, { errors: { __all__: [ONLY_CODE] } });
    expectError(await add({ url_template: 'https://x/' }), 'BAD_REQUEST', ONLY_CODE, 400, { errors: { __all__: [ONLY_CODE] } });
    expectError(await add({ name: '   ' }), 'BAD_REQUEST', 'This field cannot be blank.', 400, { errors: { name: ['This field cannot be blank.'] } });
    must(await add({}));
    const DUPLICATE = 'Realm playground with this Realm, Pygments language and Name already exists.';
    expectError(await add({}), 'BAD_REQUEST', DUPLICATE, 400, { errors: { __all__: [DUPLICATE] } });
    must(await add({ pygments_language: 'Rust' }));
  });

  it('bounds and types its input; unknown and other realms’ IDs are "Invalid playground"', async () => {
    const { w, admin } = await channelWorld();
    const other = await secondRealm(w.ctx);
    const theirs = must(await doAddPlayground(w.ctx, { realm: other.realm, user: other.owner }, PYTHON));
    expectBadRequest(await doRemovePlayground(w.ctx, w.as(admin), { playground_id: theirs.id }), 'Invalid playground');
    expectBadRequest(await doRemovePlayground(w.ctx, w.as(admin), { playground_id: 99999 }), 'Invalid playground');
    const long = await doAddPlayground(w.ctx, w.as(admin), { ...PYTHON, pygments_language: 'x'.repeat(41) });
    expect(long.isErr() && long.error.msg).toBe('pygments_language is too long (limit: 40 characters)');
    const missing = await doAddPlayground.fromTransport(w.ctx, w.as(admin), { name: 'x', pygments_language: 'Python' });
    expect(missing.isErr() && missing.error.code).toBe('REQUEST_VARIABLE_MISSING');
    expect((await register(w, admin)).realm_playgrounds).toEqual([]);
  });
});
