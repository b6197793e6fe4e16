/**
 * What user changes mean for channels: new users join the default channels; a role change
 * shows or hides channels; deactivation and reactivation change subscriber lists. Each checked
 * against fresh snapshots (verify_action) for the affected user and the others.
 */
import { doAddDefaultStream, doDeactivateUser, doReactivateUser, doUpdateUser, type User } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must, type World } from '../helpers/core.js';
import { applyChannelEvents, normalizedChannels } from './apply-channel-events.js';
import { channel, channelWorld, ids, queued, recipientsOf, register, row, setStream, type Snapshot, subscribe, subscribersOf } from './channel-helpers.js';

const SECTIONS = '["subscription", "stream", "default_streams"]';

async function verify(w: World, viewers: readonly User[], action: () => Promise<unknown>): Promise<void> {
  const taken: { viewer: User; snapshot: Snapshot; params: Record<string, unknown> }[] = [];
  for (const viewer of viewers) {
    for (const params of [{ fetch_event_types: SECTIONS }, { fetch_event_types: SECTIONS, include_subscribers: 'true' }]) {
      taken.push({ viewer, params, snapshot: await register(w, viewer, params) });
    }
  }
  await action();
  for (const { viewer, snapshot, params } of taken) {
    const events = await queued(w, viewer, snapshot.queue_id);
    const applied = applyChannelEvents(snapshot, events, { userId: viewer.id, includeSubscribers: params.include_subscribers === 'true' });
    expect(normalizedChannels(applied), `${viewer.deliveryEmail} ${JSON.stringify(params)}`).toEqual(normalizedChannels(await register(w, viewer, params)));
  }
}

describe('new users and the default channels', () => {
  it('subscribes new human users to the default channels; only the channels’ peers hear of it', async () => {
    const { w, admin, moderator, member, other, bot, drain } = await channelWorld();
    await subscribe(w, member, ['welcome', 'elsewhere'], { principals: [member.id, other.id] });
    const welcome = await channel(w, 'welcome');
    must(await doAddDefaultStream(w.ctx, w.as(admin), { stream_id: welcome.id }));
    drain();
    const newcomer = await w.addUser({ email: 'new@example.com', fullName: 'New Comer' });
    const published = drain();
    // Besides realm_user and the system groups' user_group events (tested with user groups).
    expect(published.filter((p) => !['realm_user', 'user_group'].includes(p.event.type)).map((p) => [p.event, [...p.userIds].sort((a, b) => a - b)])).toEqual([
      [{ type: 'subscription', op: 'peer_add', stream_ids: [welcome.id], user_ids: [newcomer.id] }, ids(w.owner, admin, moderator, member, other, bot)],
    ]);
    expect(await row(w, newcomer, welcome)).toMatchObject({ active: true, color: '#76ce90' });
    expect(await row(w, newcomer, await channel(w, 'elsewhere'))).toBeUndefined();
    const snapshot = await register(w, newcomer, { fetch_event_types: SECTIONS });
    expect(snapshot.subscriptions.map((s: Snapshot) => s.name)).toEqual(['welcome']);
    const newBot = await w.addUser({ email: 'new-bot@example.com', fullName: 'New Bot', bot: true, botOwnerId: member.id });
    expect(await row(w, newBot, welcome)).toBeUndefined();
  });

  it('keeps every other viewer’s snapshot right', async () => {
    const { w, admin, member, other, guest } = await channelWorld();
    await subscribe(w, member, ['welcome'], { principals: [member.id, other.id] });
    must(await doAddDefaultStream(w.ctx, w.as(admin), { stream_id: (await channel(w, 'welcome')).id }));
    await verify(w, [w.owner, admin, member, other, guest], () => w.addUser({ email: 'new@example.com', fullName: 'New Comer' }));
  });
});

describe('role changes', () => {
  it('shows an administrator every private channel and hides them again from a member; a guest keeps only their own', async () => {
    const { w, admin, member, other, drain } = await channelWorld();
    await subscribe(w, member, ['secret'], { invite_only: true });
    await subscribe(w, member, ['public']);
    await subscribe(w, other, ['mine']);
    const [secret, pub] = [await channel(w, 'secret'), await channel(w, 'public')];
    drain();
    must(await doUpdateUser(w.ctx, w.as(admin), { user_id: other.id, role: 200 }));
    // The user_group events of a role change are tested with user groups.
    let published = drain().filter((p) => !['realm_user', 'user_group'].includes(p.event.type));
    expect(published.map((p) => [p.event, [...p.userIds]])).toEqual([
      [{ type: 'stream', op: 'create', streams: [expect.objectContaining({ stream_id: secret.id, subscriber_count: 0 })] }, [other.id]],
      [{ type: 'subscription', op: 'peer_add', stream_ids: [secret.id], user_ids: [member.id] }, [other.id]],
    ]);
    must(await doUpdateUser(w.ctx, w.as(admin), { user_id: other.id, role: 400 }));
    expect(recipientsOf(drain(), 'stream', 'delete')).toEqual([[other.id]]);
    must(await doUpdateUser(w.ctx, w.as(admin), { user_id: other.id, role: 600 }));
    published = drain().filter((p) => p.event.type === 'stream');
    expect(published.map((p) => p.event)).toEqual([{ type: 'stream', op: 'delete', streams: [{ stream_id: pub.id }], stream_ids: [pub.id] }]);
  });

  it('keeps the changed user’s snapshot right', async () => {
    const { w, member, other } = await channelWorld();
    await subscribe(w, member, ['secret'], { invite_only: true });
    await subscribe(w, member, ['public', 'old']);
    await subscribe(w, other, ['mine']);
    await setStream(w, await channel(w, 'old'), { isArchived: true });
    for (const role of ['200', '400', '600', '300', '100', '400']) {
      await verify(w, [other, member], () => doUpdateUser.fromTransport(w.ctx, w.as(w.owner), { user_id: String(other.id), role }));
    }
  });
});

describe('deactivation and reactivation', () => {
  it('takes the user out of subscriber lists with peer_remove, and back with peer_add', async () => {
    const { w, admin, moderator, member, other, bot, drain } = await channelWorld();
    await subscribe(w, member, ['public'], { principals: [member.id, other.id] });
    await subscribe(w, member, ['secret'], { invite_only: true, principals: [member.id, other.id] });
    const [pub, secret] = [await channel(w, 'public'), await channel(w, 'secret')];
    drain();
    must(await doDeactivateUser(w.ctx, w.as(admin), { user_id: other.id }));
    const published = drain();
    const peers = published.filter((p) => p.event.type === 'subscription');
    expect(peers.map((p) => [p.event, [...p.userIds].sort((a, b) => a - b)])).toEqual([
      [{ type: 'subscription', op: 'peer_remove', stream_ids: [pub.id], user_ids: [other.id] }, ids(w.owner, admin, moderator, member, bot)],
      [{ type: 'subscription', op: 'peer_remove', stream_ids: [secret.id], user_ids: [other.id] }, ids(w.owner, admin, member)],
    ]);
    // Before the realm_user update, as in the reference.
    expect(published.findIndex((p) => p.event.type === 'subscription')).toBeLessThan(published.findIndex((p) => p.event.type === 'realm_user'));
    expect(await subscribersOf(w, pub)).toEqual([member.id]);
    must(await doReactivateUser(w.ctx, w.as(admin), { user_id: other.id }));
    expect(recipientsOf(drain(), 'subscription', 'peer_add')).toEqual([ids(w.owner, admin, moderator, member, bot), ids(w.owner, admin, member)]);
    expect(await subscribersOf(w, pub)).toEqual(ids(member, other));
  });

  it('keeps every other viewer’s snapshot right', async () => {
    const { w, admin, member, other, guest } = await channelWorld();
    await subscribe(w, member, ['public'], { principals: [member.id, other.id, guest.id] });
    await subscribe(w, member, ['secret'], { invite_only: true, principals: [member.id, other.id] });
    await verify(w, [w.owner, admin, member, guest], () => doDeactivateUser(w.ctx, w.as(admin), { user_id: other.id }));
    await verify(w, [w.owner, admin, member, guest], () => doReactivateUser(w.ctx, w.as(admin), { user_id: other.id }));
  });
});
