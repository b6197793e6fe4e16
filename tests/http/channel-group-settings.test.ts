/**
 * The channel `can_*_group` settings over HTTP: plain JSON values in the multipart creation
 * request, `{new, old}` JSON in the PATCH form body, and the error envelopes.
 */
import { systemGroupId } from '@teamchat/core/internal';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, multipart, startServer } from '../helpers/http.js';

afterEach(closeServers);

describe('channel group settings over HTTP', () => {
  it('creates a channel with settings, changes one, and reads both back', async () => {
    const world = await makeWorld();
    const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
    const other = await world.addUser({ email: 'otto@example.com', fullName: 'Otto Other' });
    const server = await startServer(world);
    const admins = systemGroupId('role:administrators');
    expectSuccess(
      await call(server, 'POST', '/users/me/subscriptions', {
        auth: member,
        body: multipart({
          subscriptions: JSON.stringify([{ name: 'Denmark' }]),
          can_send_message_group: String(admins),
          can_resolve_topics_group: JSON.stringify({ direct_members: [other.id], direct_subgroups: [] }),
        }),
      }),
    );
    const streams = expectSuccess(await call(server, 'GET', '/streams', { auth: member })).streams;
    const stream = streams.find((s: { name: string }) => s.name === 'Denmark');
    expect(stream).toMatchObject({
      can_send_message_group: admins,
      can_resolve_topics_group: { direct_members: [other.id], direct_subgroups: [] },
      can_administer_channel_group: { direct_members: [member.id], direct_subgroups: [] },
      stream_post_policy: 2,
      is_announcement_only: true,
    });
    const path = `/streams/${stream.stream_id}`;
    expectSuccess(await call(server, 'PATCH', path, { auth: member, body: form({ can_send_message_group: JSON.stringify({ new: systemGroupId('role:members'), old: admins }) }) }));
    const after = expectSuccess(await call(server, 'GET', path, { auth: other })).stream;
    expect(after).toMatchObject({ can_send_message_group: systemGroupId('role:members'), stream_post_policy: 1 });

    expectError(await call(server, 'PATCH', path, { auth: member, body: form({ can_send_message_group: JSON.stringify({ new: admins, old: admins }) }) }), 400, 'EXPECTATION_MISMATCH', "'old' value does not match the expected value.");
    expectError(await call(server, 'PATCH', path, { auth: member, body: form({ can_send_message_group: '{nope' }) }), 400, 'BAD_REQUEST', 'can_send_message_group is not valid JSON');
    expectError(await call(server, 'PATCH', path, { auth: other, body: form({ can_send_message_group: JSON.stringify({ new: admins }) }) }), 400, 'BAD_REQUEST', 'You do not have permission to administer this channel.');
    expectError(await call(server, 'PATCH', path, { body: form({ can_send_message_group: JSON.stringify({ new: admins }) }) }), 401, 'UNAUTHORIZED', /^Not logged in/);
    expectError(
      await call(server, 'POST', '/users/me/subscriptions', { auth: member, body: multipart({ subscriptions: JSON.stringify([{ name: 'Sweden' }]), can_subscribe_group: '9999' }) }),
      400,
      'BAD_REQUEST',
      'Invalid user group',
    );
  });
});
