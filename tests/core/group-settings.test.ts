/**
 * Group-setting values on input: canonical forms, the `{new, old}` check, and validation against
 * the realm's groups and users with the reference's texts; user-defined groups in settings.
 */
import {
  canonicalGroupSetting,
  CHANNEL_GROUP_PERMISSIONS,
  groupSettingChanges,
  hasRealmPermission,
  REALM_GROUP_PERMISSIONS,
  resolveGroupSetting,
  type StoredUserGroup,
  systemGroupId,
} from '@teamchat/core/internal';
import { ok } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { expectBadRequest, expectError } from './fixtures.js';

const id = systemGroupId;
const group = (gid: number, members: number[], deactivated = false): StoredUserGroup => ({
  id: gid, realmId: 1, name: `g${gid}`, description: '', creatorId: null, dateCreated: 0, deactivated, members, subgroups: [], settings: {},
});
const directory = {
  userGroups: [group(20, [7]), group(21, [8], true)],
  users: [{ id: 7, isActive: true }, { id: 8, isActive: true }, { id: 9, isActive: false }],
};
const emoji = REALM_GROUP_PERMISSIONS.can_add_custom_emoji_group;

describe('canonical values and the {new, old} check', () => {
  it('an anonymous group of one subgroup is that group; an empty one is role:nobody', () => {
    expect(canonicalGroupSetting({ direct_members: [], direct_subgroups: [20] })).toBe(20);
    expect(canonicalGroupSetting({ direct_members: [], direct_subgroups: [] })).toBe(id('role:nobody'));
    expect(canonicalGroupSetting({ direct_members: [7], direct_subgroups: [] })).toEqual({ direct_members: [7], direct_subgroups: [] });
  });

  it('refuses an old value that is not the current one; sets compare unordered', () => {
    expectError(groupSettingChanges('role:members', { new: id('role:administrators'), old: id('role:owners') }), 'EXPECTATION_MISMATCH', "'old' value does not match the expected value.", 400);
    expect(groupSettingChanges('role:members', { new: id('role:owners'), old: id('role:members') })).toEqual(ok(true));
    expect(groupSettingChanges('role:members', { new: { direct_members: [], direct_subgroups: [id('role:members')] } })).toEqual(ok(false));
    const anon = { direct_members: [7, 8], direct_subgroups: ['role:owners', 20] };
    expect(groupSettingChanges(anon, { new: { direct_members: [8, 7], direct_subgroups: [20, id('role:owners')] }, old: { direct_members: [7, 8], direct_subgroups: [20, 1] } })).toEqual(ok(false));
  });
});

describe('resolveGroupSetting', () => {
  it('stores system groups by name, user groups by ID, anonymous groups with both', () => {
    expect(resolveGroupSetting('can_add_custom_emoji_group', id('role:moderators'), emoji, directory)).toEqual(ok('role:moderators'));
    expect(resolveGroupSetting('can_add_custom_emoji_group', 20, emoji, directory)).toEqual(ok(20));
    expect(resolveGroupSetting('can_add_custom_emoji_group', { direct_members: [7, 7], direct_subgroups: [20, id('role:owners')] }, emoji, directory)).toEqual(
      ok({ direct_members: [7], direct_subgroups: [20, 'role:owners'] }),
    );
    expect(resolveGroupSetting('can_add_custom_emoji_group', { direct_members: [], direct_subgroups: [20] }, emoji, directory)).toEqual(ok(20));
  });

  it('answers the reference errors for unknown and deactivated groups and inactive or unknown users', () => {
    expectBadRequest(resolveGroupSetting('can_add_custom_emoji_group', 99, emoji, directory), 'Invalid user group');
    expectBadRequest(resolveGroupSetting('can_add_custom_emoji_group', 21, emoji, directory), 'User group is deactivated.');
    expectBadRequest(resolveGroupSetting('can_add_custom_emoji_group', { direct_members: [7], direct_subgroups: [99] }, emoji, directory), 'Invalid user group ID: 99');
    expectBadRequest(resolveGroupSetting('can_add_custom_emoji_group', { direct_members: [7], direct_subgroups: [21] }, emoji, directory), 'User group is deactivated.');
    expectBadRequest(resolveGroupSetting('can_add_custom_emoji_group', { direct_members: [9], direct_subgroups: [] }, emoji, directory), 'Invalid user ID: 9');
    expectBadRequest(resolveGroupSetting('can_add_custom_emoji_group', { direct_members: [1234], direct_subgroups: [] }, emoji, directory), 'Invalid user ID: 1234');
  });

  it('refuses the system groups a setting may not name', () => {
    const name = 'can_add_custom_emoji_group';
    expectBadRequest(resolveGroupSetting(name, id('role:internet'), emoji, directory), "'can_add_custom_emoji_group' setting cannot be set to 'role:internet' group.");
    expectBadRequest(resolveGroupSetting(name, id('role:everyone'), emoji, directory), "'can_add_custom_emoji_group' setting cannot be set to 'role:everyone' group.");
    expect(resolveGroupSetting('can_delete_own_message_group', id('role:everyone'), REALM_GROUP_PERMISSIONS.can_delete_own_message_group, directory).isOk()).toBe(true);
    expectBadRequest(resolveGroupSetting('can_manage_all_groups', id('role:nobody'), REALM_GROUP_PERMISSIONS.can_manage_all_groups, directory), "'can_manage_all_groups' setting cannot be set to 'role:nobody' group.");
    expectBadRequest(resolveGroupSetting('can_send_message_group', id('role:internet'), CHANNEL_GROUP_PERMISSIONS.can_send_message_group, directory), "'can_send_message_group' setting cannot be set to 'role:internet' group.");
    const web = REALM_GROUP_PERMISSIONS.can_create_web_public_channel_group;
    expectBadRequest(resolveGroupSetting('can_create_web_public_channel_group', id('role:members'), web, directory), "'can_create_web_public_channel_group' setting cannot be set to 'role:members' group.");
    expectBadRequest(resolveGroupSetting('can_create_web_public_channel_group', 20, web, directory), "'can_create_web_public_channel_group' must be a system user group.");
    expectBadRequest(resolveGroupSetting('can_create_web_public_channel_group', { direct_members: [7], direct_subgroups: [] }, web, directory), "'can_create_web_public_channel_group' must be a system user group.");
    expect(resolveGroupSetting('can_create_web_public_channel_group', id('role:moderators'), web, directory)).toEqual(ok('role:moderators'));
  });
});

describe('user-defined groups in settings', () => {
  it('a user holds a permission through a named group or an anonymous group naming it; guests never where everyone is not allowed', () => {
    const inGroup = { id: 7, role: 400 as const, userGroupIds: new Set([20]) };
    const outside = { id: 8, role: 400 as const, userGroupIds: new Set<number>() };
    const guest = { id: 9, role: 600 as const, userGroupIds: new Set([20]) };
    for (const value of [20, { direct_members: [], direct_subgroups: [20] }]) {
      const realm = { settings: { can_add_custom_emoji_group: value } };
      expect(hasRealmPermission(inGroup, realm, 'can_add_custom_emoji_group')).toBe(true);
      expect(hasRealmPermission(outside, realm, 'can_add_custom_emoji_group')).toBe(false);
      expect(hasRealmPermission(guest, realm, 'can_add_custom_emoji_group')).toBe(false);
    }
    expect(hasRealmPermission(guest, { settings: { can_delete_own_message_group: 20 } }, 'can_delete_own_message_group')).toBe(true);
    // A user read without memberships is in no user-defined group.
    expect(hasRealmPermission({ id: 7, role: 400 }, { settings: { can_add_custom_emoji_group: 20 } }, 'can_add_custom_emoji_group')).toBe(false);
  });
});
