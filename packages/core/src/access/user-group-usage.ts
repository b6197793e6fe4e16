/**
 * Where a user group is in use, as the reference lists it when refusing to deactivate the group
 * (CANNOT_DEACTIVATE_GROUP_IN_USE `objections`): active supergroups, realm settings, channel
 * settings and other active groups' settings that name it, directly or as a subgroup of an
 * anonymous group. Archived channels count too: their settings still hold the group.
 */
import { CHANNEL_GROUP_SETTINGS, channelGroup } from './channel-rules.js';
import { REALM_GROUP_SETTING_DEFAULTS, realmGroupSetting, type RealmGroupSettingName } from '../settings/realm-settings.js';
import { USER_GROUP_SETTINGS, userGroupSetting } from '../settings/user-group-permissions.js';
import type { Realm, StoredGroupSetting, StoredUserGroup, Stream } from '../storage/types.js';

/** Whether a stored setting names the user-defined group (system groups are stored by name). */
const names = (setting: StoredGroupSetting, id: number) =>
  typeof setting === 'object' ? setting.direct_subgroups.includes(id) : setting === id;

/** The objections to deactivating `group`, in the reference's order; empty when it is unused. */
export function groupUsageObjections(group: StoredUserGroup, realm: Realm, streams: readonly Stream[], groups: readonly StoredUserGroup[]): Record<string, unknown>[] {
  const objections: Record<string, unknown>[] = [];
  const others = groups.filter((g) => g.id !== group.id && !g.deactivated);
  const supergroups = others.filter((g) => g.subgroups.includes(group.id)).map((g) => g.id);
  if (supergroups.length > 0) objections.push({ type: 'subgroup', supergroup_ids: supergroups });
  const realmSettings = (Object.keys(REALM_GROUP_SETTING_DEFAULTS) as RealmGroupSettingName[]).filter((name) => names(realmGroupSetting(realm, name), group.id));
  if (realmSettings.length > 0) objections.push({ type: 'realm', settings: realmSettings.sort() });
  for (const stream of streams) {
    const settings = CHANNEL_GROUP_SETTINGS.filter((name) => names(channelGroup(stream, name), group.id));
    if (settings.length > 0) objections.push({ type: 'channel', channel_id: stream.id, settings });
  }
  for (const other of others) {
    const settings = USER_GROUP_SETTINGS.filter((name) => names(userGroupSetting(other, name), group.id));
    if (settings.length > 0) objections.push({ type: 'user_group', group_id: other.id, settings });
  }
  return objections;
}
