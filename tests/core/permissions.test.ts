/**
 * Permission checks that follow the realm's group settings once PATCH /realm changes them:
 * channel creation, subscribing others, direct messages, user groups, and user-defined groups
 * named by a setting.
 */
import { doCreateUserGroup, doRegister, doSendMessage, doSubscribe, doUpdateRealm, systemGroupId, type User } from '@teamchat/core/internal';
import { describe, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import { expectBadRequest } from './fixtures.js';

async function setup() {
  const w = await makeWorld({ config: { timers: false } });
  const admin = await w.addUser({ email: 'admin@example.com', role: 200 });
  const alice = await w.addUser({ email: 'alice@example.com' });
  const bob = await w.addUser({ email: 'bob@example.com' });
  const set = async (name: string, value: unknown) => must(await doUpdateRealm(w.ctx, w.as(w.owner), { [name]: JSON.stringify({ new: value }) }));
  const realmUser = async (user: User) => {
    const realm = (await w.ctx.storage.read((tx) => tx.realms.byId(w.realm.id)))!;
    return must(await doRegister(w.ctx, { realm, user }, { fetch_event_types: ["realm_user"] }));
  };
  const dm = (from: User, to: User[]) => doSendMessage(w.ctx, w.as(from), { type: 'direct', to: JSON.stringify(to.map((u) => u.id)), content: 'hi' });
  return { w, admin, alice, bob, set, realmUser, dm };
}

describe('permissions follow the realm settings', () => {
  it('channel creation and subscribing others, and register’s realm_user flags', async () => {
    const { w, admin, alice, bob, set, realmUser } = await setup();
    await set('can_create_public_channel_group', systemGroupId('role:administrators'));
    expectBadRequest(await doSubscribe(w.ctx, w.as(alice), { subscriptions: [{"name":"new"}] }), 'Insufficient permission');
    must(await doSubscribe(w.ctx, w.as(alice), { subscriptions: [{"name":"hidden"}], invite_only: true }));
    must(await doSubscribe(w.ctx, w.as(admin), { subscriptions: [{"name":"new"}] }));
    expect(await realmUser(alice)).toMatchObject({ can_create_public_streams: false, can_create_private_streams: true, can_create_streams: true, can_subscribe_other_users: true });
    await set('can_add_subscribers_group', systemGroupId('role:moderators'));
    expectBadRequest(await doSubscribe(w.ctx, w.as(alice), { subscriptions: [{"name":"new"}], principals: [bob.id] }), 'Insufficient permission');
    must(await doSubscribe(w.ctx, w.as(alice), { subscriptions: [{"name":"new"}] }));
    expect(await realmUser(alice)).toMatchObject({ can_subscribe_other_users: false });
    await set('can_invite_users_group', systemGroupId('role:administrators'));
    expect(await realmUser(alice)).toMatchObject({ can_invite_others_to_realm: false });
    expect(await realmUser(admin)).toMatchObject({ can_invite_others_to_realm: true, can_create_public_streams: true });
  });

  it('direct messages: the permission group and the initiator group, with the reference texts', async () => {
    const { admin, alice, bob, set, dm } = await setup();
    await set('direct_message_permission_group', systemGroupId('role:nobody'));
    expectBadRequest(await dm(alice, [bob]), 'Direct messages are disabled in this organization.');
    must(await dm(alice, [alice]));
    await set('direct_message_permission_group', systemGroupId('role:administrators'));
    expectBadRequest(await dm(alice, [bob]), 'This conversation does not include any users who can authorize it.');
    must(await dm(alice, [admin]));
    must(await dm(alice, [bob, admin]));
    await set('direct_message_permission_group', systemGroupId('role:everyone'));
    await set('direct_message_initiator_group', systemGroupId('role:administrators'));
    expectBadRequest(await dm(alice, [bob]), 'You do not have permission to initiate direct message conversations.');
    must(await dm(alice, [admin])); // the conversation exists already
    must(await dm(admin, [bob]));
    must(await dm(bob, [admin]));
  });

  it('user groups: can_create_groups', async () => {
    const { w, alice, set } = await setup();
    await set('can_create_groups', systemGroupId('role:administrators'));
    expectBadRequest(await doCreateUserGroup(w.ctx, w.as(alice), { name: 'team', description: '', members: [] }), 'Insufficient permission');
    must(await doCreateUserGroup(w.ctx, w.as(w.owner), { name: 'team', description: '', members: [] }));
  });

  it('a user-defined group, or an anonymous group naming it, grants a permission to its members', async () => {
    const { w, alice, bob, set } = await setup();
    const { group_id: id } = must(await doCreateUserGroup(w.ctx, w.as(w.owner), { name: 'creators', description: '', members: [alice.id] }));
    await set('can_create_public_channel_group', id);
    must(await doSubscribe(w.ctx, w.as(alice), { subscriptions: [{"name":"by-alice"}] }));
    expectBadRequest(await doSubscribe(w.ctx, w.as(bob), { subscriptions: [{"name":"by-bob"}] }), 'Insufficient permission');
    await set('can_create_public_channel_group', { direct_members: [bob.id], direct_subgroups: [id] });
    must(await doSubscribe(w.ctx, w.as(bob), { subscriptions: [{"name":"by-bob"}] }));
    must(await doSubscribe(w.ctx, w.as(alice), { subscriptions: [{"name":"by-alice-2"}] }));
  });
});
