/** PATCH /realm over HTTP: form values (JSON inside them), the success body, and the error envelopes. */
import { systemGroupId } from '@teamchat/core/internal';
import { afterEach, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, startServer } from '../helpers/http.js';

afterEach(closeServers);

it('changes settings for administrators; others get the reference errors', async () => {
  const world = await makeWorld({ config: { timers: false } });
  const admin = await world.addUser({ email: 'admin@example.com', role: 200 });
  const member = await world.addUser({ email: 'member@example.com' });
  const server = await startServer(world);
  const patch = (auth: typeof admin | null, body: Record<string, string>) => call(server, 'PATCH', '/realm', { ...(auth ? { auth } : {}), body: form(body) });

  const body = expectSuccess(
    await patch(admin, { name: 'Renamed', message_content_delete_limit_seconds: '300', can_delete_any_message_group: JSON.stringify({ new: systemGroupId('role:moderators') }) }),
  );
  expect(body).toEqual({ result: 'success', msg: '', name: 'updated', message_content_delete_limit_seconds: 300, can_delete_any_message_group: systemGroupId('role:moderators') });
  const state = expectSuccess(await call(server, 'POST', '/register', { auth: member, body: form({ fetch_event_types: '["realm"]' }) }));
  expect(state).toMatchObject({ realm_name: 'Renamed', realm_message_content_delete_limit_seconds: 300, realm_can_delete_any_message_group: systemGroupId('role:moderators') });

  expectError(await patch(member, { name: 'x' }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
  expectError(await patch(admin, { can_manage_all_groups: JSON.stringify({ new: 1 }) }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
  expectError(await patch(admin, { allow_message_editing: 'maybe' }), 400, 'BAD_REQUEST', 'allow_message_editing is not valid JSON');
  expectError(await patch(admin, { can_delete_any_message_group: '{"new": 1, "old": 1}' }), 400, 'EXPECTATION_MISMATCH', "'old' value does not match the expected value.");
  expectError(await patch(admin, { can_delete_any_message_group: '{"new": {"direct_members": [1]}}' }), 400, 'BAD_REQUEST', 'Invalid can_delete_any_message_group["new"]');
  expectError(await patch(null, { name: 'x' }), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
});
