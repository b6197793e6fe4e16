/** System groups: listed with fixed IDs and role-derived members, never changed through the API, kept current by role changes. */
import { doCreateUserGroup, doDeactivateUser, doDeactivateUserGroup, doReactivateUser, doUpdateUser, doUpdateUserGroup, doUpdateUserGroupSubgroups } from '@teamchat/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { eventsOfType } from '../helpers/events.js';
import { applyUserGroupEvents } from './apply-user-group-events.js';
import { type ChannelWorld, channelWorld, ids, queued, register } from './channel-helpers.js';
import { expectBadRequest, setUser } from './fixtures.js';
import { changeMembers, type Group, listGroups } from './user-group-helpers.js';

let c: ChannelWorld;
beforeEach(async () => {
  c = await channelWorld();
});

const nobody = 8;
const system = (id: number, name: string, description: string, members: number[], subgroups: number[]) => ({
  id,
  name,
  description,
  members,
  direct_subgroup_ids: subgroups,
  creator_id: null,
  date_created: null,
  is_system_group: true,
  deactivated: false,
  can_add_members_group: nobody,
  can_join_group: nobody,
  can_leave_group: nobody,
  can_manage_group: nobody,
  can_mention_group: nobody,
  can_remove_members_group: nobody,
});

describe('system groups', () => {
  it('GET /user_groups and register list the eight system groups first: direct members by exact role, the next higher group as subgroup', async () => {
    const memberIds = ids(c.member, c.other, c.bot);
    const expected = [
      system(1, 'role:owners', 'Owners of this organization', [c.w.owner.id], []),
      system(2, 'role:administrators', 'Administrators of this organization, including owners', [c.admin.id], [1]),
      system(3, 'role:moderators', 'Moderators of this organization, including administrators', [c.moderator.id], [2]),
      system(4, 'role:fullmembers', 'Members of this organization, not including new accounts and guests', memberIds, [3]),
      system(5, 'role:members', 'Members of this organization, not including guests', memberIds, [4]),
      system(6, 'role:everyone', 'Everyone in this organization, including guests', [c.guest.id], [5]),
      system(7, 'role:internet', 'Everyone on the Internet', [], [6]),
      system(8, 'role:nobody', 'Nobody', [], []),
    ];
    expect(await listGroups(c, c.guest)).toEqual(expected);
    expect((await register(c.w, c.member, { fetch_event_types: '["user_group"]' })).realm_user_groups).toEqual(expected);
    // Deactivated users are in no group's members (FL 303).
    await setUser(c.w.ctx, c.other, { isActive: false });
    expect((await listGroups(c))[4]!.members).toEqual(ids(c.member, c.bot));
  });

  it('cannot be changed through the API, even by owners: Insufficient permission, nothing written or sent', async () => {
    const owner = c.w.as(c.w.owner);
    for (const id of [1, 2, 6, 8]) {
      expectBadRequest(await changeMembers(c, id, { add: [c.member.id] }, c.w.owner), 'Insufficient permission');
      expectBadRequest(await doUpdateUserGroup(c.w.ctx, owner, { user_group_id: id, name: 'mine' }), 'Insufficient permission');
      expectBadRequest(await doUpdateUserGroupSubgroups(c.w.ctx, owner, { user_group_id: id, add: [3] }), 'Insufficient permission');
      expectBadRequest(await doDeactivateUserGroup(c.w.ctx, owner, { user_group_id: id }), 'Insufficient permission');
    }
    expect(c.drain()).toEqual([]);
  });
});

describe('role changes and (re)activation', () => {
  it('verify_action: role changes, a deactivation and a reactivation keep every client\'s realm_user_groups current', async () => {
    const before = await register(c.w, c.guest, { fetch_event_types: '["user_group"]', event_types: '["user_group", "realm_user"]' });
    must(await doUpdateUser(c.w.ctx, c.w.as(c.w.owner), { user_id: c.member.id, role: 200 }));
    must(await doUpdateUser(c.w.ctx, c.w.as(c.w.owner), { user_id: c.moderator.id, role: 400 }));
    must(await doUpdateUser(c.w.ctx, c.w.as(c.w.owner), { user_id: c.other.id, role: 600 }));
    must(await doDeactivateUser(c.w.ctx, c.w.as(c.w.owner), { user_id: c.admin.id }));
    must(await doReactivateUser(c.w.ctx, c.w.as(c.w.owner), { user_id: c.admin.id }));
    const events = await queued(c.w, c.guest, before.queue_id);
    const after = (await register(c.w, c.guest, { fetch_event_types: '["user_group"]' })).realm_user_groups as Group[];
    expect(applyUserGroupEvents(before.realm_user_groups as Group[], events)).toEqual(after);
    expect(after.find((g) => g.id === 2)!.members).toEqual(ids(c.admin, c.member));
    // A member becoming a guest leaves role:members and role:fullmembers and joins role:everyone.
    expect(eventsOfType(events, 'user_group').filter((e) => 'user_ids' in e && e.user_ids.includes(c.other.id)).map((e) => [e.op, 'group_id' in e && e.group_id])).toEqual([
      ['remove_members', 5],
      ['add_members', 6],
      ['remove_members', 4],
    ]);
  });

  it('a reactivated user is announced back in their user-defined groups too', async () => {
    const created = must(await doCreateUserGroup(c.w.ctx, c.w.as(c.member), { name: 'crew', description: '', members: [c.other.id] }));
    must(await doDeactivateUser(c.w.ctx, c.w.as(c.w.owner), { user_id: c.other.id }));
    expect((await listGroups(c)).find((g) => g.id === created.group_id)!.members).toEqual([]);
    c.drain();
    must(await doReactivateUser(c.w.ctx, c.w.as(c.w.owner), { user_id: c.other.id }));
    const groupEvents = c.drain().filter((p) => p.event.type === 'user_group').map((p) => [p.event.op, p.event.group_id, p.event.user_ids]);
    expect(groupEvents).toEqual([
      ['add_members', 5, [c.other.id]],
      ['add_members', 4, [c.other.id]],
      ['add_members', created.group_id, [c.other.id]],
    ]);
    expect((await listGroups(c)).find((g) => g.id === created.group_id)!.members).toEqual([c.other.id]);
  });
});
