/** Video calls over HTTP: the built-in provider, missing provider or token, authentication, register section and event. */
import { announceVideoProviderToken, createLinkVideoCallProvider, type VideoCallProvider } from '@teamchat/core/internal';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, startServer } from '../helpers/http.js';

afterEach(closeServers);

const PATH = '/calls/videoprovider/create';

describe('POST /calls/videoprovider/create over HTTP', () => {
  it('answers a meeting URL from the built-in provider', async () => {
    const world = await makeWorld({ videoCalls: createLinkVideoCallProvider('https://meet.example.com/team') });
    const server = await startServer(world);
    const body = expectSuccess(await call(server, 'POST', PATH, { auth: world.owner }));
    expect(Object.keys(body).sort()).toEqual(['msg', 'result', 'url']);
    expect(body.url).toMatch(/^https:\/\/meet\.example\.com\/team\/[0-9a-f]{24}$/);
    expect(expectSuccess(await call(server, 'POST', PATH, { auth: world.owner, body: form({ is_video_call: 'false' }) })).url).toMatch(/^https:\/\/meet\.example\.com\/team\//);
    expectError(await call(server, 'POST', PATH, { auth: world.owner, body: form({ is_video_call: 'yes' }) }), 400, 'BAD_REQUEST', 'is_video_call is not valid JSON');
    expectError(await call(server, 'POST', PATH, { auth: world.owner, body: form({ is_video_call: '3' }) }), 400, 'BAD_REQUEST', 'is_video_call is not a boolean');
    expectError(await call(server, 'POST', PATH), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
    expect((await call(server, 'GET', PATH, { auth: world.owner })).status).toBe(405);
  });

  it('is BAD_REQUEST when no provider is configured', async () => {
    const world = await makeWorld();
    const server = await startServer(world);
    expectError(await call(server, 'POST', PATH, { auth: world.owner }), 400, 'BAD_REQUEST', 'Video call provider credentials have not been configured');
  });

  it('is INVALID_VIDEOPROVIDER_TOKEN (HTTP 400) for a user who has not linked a token-requiring provider', async () => {
    const linked = new Set<number>();
    const provider: VideoCallProvider = {
      hasToken: (user) => linked.has(user.id),
      createCall: async (user) => ({ url: `https://video.example.com/u${user.id}` }),
    };
    const world = await makeWorld({ videoCalls: provider });
    const member = await world.addUser({ email: 'mel@example.com' });
    const server = await startServer(world);
    const memberQueue = expectSuccess(await call(server, 'POST', '/register', { auth: member, body: form({ fetch_event_types: '["video_calls"]' }) }));
    const ownerQueue = expectSuccess(await call(server, 'POST', '/register', { auth: world.owner, body: form({ fetch_event_types: '["video_calls"]' }) }));
    expect(memberQueue.has_videoprovider_token).toBe(false);
    expectError(await call(server, 'POST', PATH, { auth: member }), 400, 'INVALID_VIDEOPROVIDER_TOKEN', 'Invalid video call provider access token');

    // The member links an account: the provider reports it, the member's clients hear of it, the owner's do not.
    linked.add(member.id);
    announceVideoProviderToken(world.ctx, member, true);
    const events = expectSuccess(await call(server, 'GET', '/events', { auth: member, query: { queue_id: memberQueue.queue_id, dont_block: 'true' } })).events;
    expect(events.map(({ id: _id, ...e }: { id: number }) => e)).toEqual([{ type: 'has_videoprovider_token', value: true }]);
    expect(expectSuccess(await call(server, 'GET', '/events', { auth: world.owner, query: { queue_id: ownerQueue.queue_id, dont_block: 'true' } })).events).toEqual([]);
    expect(expectSuccess(await call(server, 'POST', PATH, { auth: member })).url).toBe(`https://video.example.com/u${member.id}`);
    expect(expectSuccess(await call(server, 'POST', '/register', { auth: member, body: form({ fetch_event_types: '["video_calls"]' }) })).has_videoprovider_token).toBe(true);
  });
});
