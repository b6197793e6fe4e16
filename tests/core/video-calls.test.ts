/** Video calls in the core: the built-in provider, token-requiring providers, the register section and its event. */
import { announceVideoProviderToken, createLinkVideoCallProvider, doCreateVideoCall, doRegister, getEvents, type User, type VideoCallProvider } from '@teamchat/core/internal';
import { describe, expect, it } from 'vitest';
import { makeWorld, must, queueIdOf } from '../helpers/core.js';
import { expectError } from './fixtures.js';

const fixedBytes = (size: number) => Buffer.alloc(size, 0xab);

/** A provider that needs a linked account, as an OAuth integration does. */
function tokenProvider(linked: Set<number>, outcome: 'ok' | 'invalid_token' | 'failed' | 'throws' = 'ok'): VideoCallProvider {
  return {
    hasToken: (user) => linked.has(user.id),
    async createCall(user, { isVideoCall }) {
      if (outcome === 'throws') throw new Error('network down');
      if (outcome === 'ok') return { url: `https://video.example.com/${user.id}?video=${isVideoCall}` };
      if (outcome === 'invalid_token') linked.delete(user.id);
      return { failure: outcome };
    },
  };
}

async function eventsOf(world: Awaited<ReturnType<typeof makeWorld>>, user: User, queueId: string) {
  const { events } = must(await getEvents(world.ctx, world.as(user), { queue_id: queueId, dont_block: true }));
  return (events).map(({ id: _id, ...e }) => e);
}

describe('POST /calls/videoprovider/create (core)', () => {
  it('builds a meeting URL from the configured base and a random room', async () => {
    const world = await makeWorld({ config: { timers: false }, videoCalls: createLinkVideoCallProvider('https://meet.example.com/rooms/', fixedBytes) });
    expect(must(await doCreateVideoCall(world.ctx, world.as(world.owner), {}))).toEqual({ url: `https://meet.example.com/rooms/${'ab'.repeat(12)}` });
    expect(must(await doCreateVideoCall(world.ctx, world.as(world.owner), { is_video_call: false }))).toEqual({ url: `https://meet.example.com/rooms/${'ab'.repeat(12)}` });
  });

  it('gives a fresh room for each call with real randomness', async () => {
    const world = await makeWorld({ config: { timers: false }, videoCalls: createLinkVideoCallProvider('https://meet.example.com') });
    const a = must(await doCreateVideoCall(world.ctx, world.as(world.owner), {})).url;
    const b = must(await doCreateVideoCall(world.ctx, world.as(world.owner), {})).url;
    expect(a).toMatch(/^https:\/\/meet\.example\.com\/[0-9a-f]{24}$/);
    expect(a).not.toBe(b);
  });

  it('refuses base URLs a room cannot be appended to', () => {
    expect(() => createLinkVideoCallProvider('not a url')).toThrow(/invalid video call base URL/);
    expect(() => createLinkVideoCallProvider('ftp://meet.example.com')).toThrow(/http or https/);
    expect(() => createLinkVideoCallProvider('https://meet.example.com/?x=1')).toThrow(/query or fragment/);
  });

  it('is BAD_REQUEST without a configured provider', async () => {
    const world = await makeWorld({ config: { timers: false } });
    expectError(await doCreateVideoCall(world.ctx, world.as(world.owner), {}), 'BAD_REQUEST', 'Video call provider credentials have not been configured');
  });

  it('passes is_video_call (default true) and refuses a user without a linked account with INVALID_VIDEOPROVIDER_TOKEN', async () => {
    const world = await makeWorld({ config: { timers: false } });
    const member = await world.addUser({ email: 'mel@example.com' });
    world.ctx.videoCalls = tokenProvider(new Set([world.owner.id]));
    expect(must(await doCreateVideoCall(world.ctx, world.as(world.owner), {}))).toEqual({ url: `https://video.example.com/${world.owner.id}?video=true` });
    expect(must(await doCreateVideoCall(world.ctx, world.as(world.owner), { is_video_call: false }))).toEqual({ url: `https://video.example.com/${world.owner.id}?video=false` });
    expectError(await doCreateVideoCall(world.ctx, world.as(member), {}), 'INVALID_VIDEOPROVIDER_TOKEN', 'Invalid video call provider access token');
    expectError(await doCreateVideoCall.fromTransport(world.ctx, world.as(world.owner), { is_video_call: 'maybe' }), 'BAD_REQUEST', 'is_video_call is not valid JSON');
    expectError(await doCreateVideoCall.fromTransport(world.ctx, world.as(world.owner), { is_video_call: 1 }), 'BAD_REQUEST', 'is_video_call is not a boolean');
    expectError(await doCreateVideoCall(world.ctx, { realm: world.realm, user: null }, {}), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
  });

  it('a rejected token tells the user\'s own clients has_videoprovider_token false; other failures send nothing', async () => {
    const world = await makeWorld({ config: { timers: false } });
    const member = await world.addUser({ email: 'mel@example.com' });
    const ownerQueue = queueIdOf(must(await doRegister(world.ctx, world.as(world.owner), {})));
    const memberQueue = queueIdOf(must(await doRegister(world.ctx, world.as(member), {})));

    world.ctx.videoCalls = tokenProvider(new Set([world.owner.id]), 'failed');
    expectError(await doCreateVideoCall(world.ctx, world.as(world.owner), {}), 'BAD_REQUEST', 'Failed to create video call');
    world.ctx.videoCalls = tokenProvider(new Set([world.owner.id]), 'throws');
    expectError(await doCreateVideoCall(world.ctx, world.as(world.owner), {}), 'BAD_REQUEST', 'Failed to create video call');
    expect(await eventsOf(world, world.owner, ownerQueue)).toEqual([]);

    world.ctx.videoCalls = tokenProvider(new Set([world.owner.id]), 'invalid_token');
    expectError(await doCreateVideoCall(world.ctx, world.as(world.owner), {}), 'INVALID_VIDEOPROVIDER_TOKEN', 'Invalid video call provider access token');
    expect(await eventsOf(world, world.owner, ownerQueue)).toEqual([{ type: 'has_videoprovider_token', value: false }]);
    expect(await eventsOf(world, member, memberQueue)).toEqual([]);
  });

  it('the video_calls register section follows the provider, and announceVideoProviderToken reaches only the user', async () => {
    const world = await makeWorld({ config: { timers: false } });
    const member = await world.addUser({ email: 'mel@example.com' });
    const section = async (user: User) =>
      must(await doRegister(world.ctx, world.as(user), { fetch_event_types: ["video_calls"], event_types: ["has_videoprovider_token"] }));
    expect((await section(world.owner)).has_videoprovider_token).toBe(false);

    const linked = new Set<number>();
    world.ctx.videoCalls = tokenProvider(linked);
    const ownerState = await section(world.owner);
    const memberState = await section(member);
    expect(ownerState.has_videoprovider_token).toBe(false);

    linked.add(world.owner.id);
    announceVideoProviderToken(world.ctx, world.owner, true);
    expect(await eventsOf(world, world.owner, queueIdOf(ownerState))).toEqual([{ type: 'has_videoprovider_token', value: true }]);
    expect(await eventsOf(world, member, queueIdOf(memberState))).toEqual([]);
    expect((await section(world.owner)).has_videoprovider_token).toBe(true);
    expect((await section(member)).has_videoprovider_token).toBe(false);

    world.ctx.videoCalls = createLinkVideoCallProvider('https://meet.example.com');
    expect((await section(member)).has_videoprovider_token).toBe(true);
  });
});
