/**
 * The register's `server_supported_permission_settings`: for every realm, channel and user-group
 * permission setting, which groups it may name and its default, from the same configuration
 * the server enforces, so that clients offer exactly the values the server accepts.
 */
import { defaultChannelGroups } from '../access/channel-rules.js';
import type { StoredGroupSetting } from '../storage/types.js';
import { CHANNEL_GROUP_PERMISSIONS, type GroupPermissionConfig, REALM_GROUP_PERMISSIONS } from './realm-group-permissions.js';
import { REALM_GROUP_SETTING_DEFAULTS } from './realm-settings.js';
import { defaultUserGroupSettings, USER_GROUP_PERMISSIONS } from './user-group-permissions.js';

/** One group permission setting as `server_supported_permission_settings` describes it (named so that declaration files can name it). */
export interface PermissionSettingMetadata {
  require_system_group: boolean;
  allow_internet_group: boolean;
  allow_nobody_group: boolean;
  allow_everyone_group: boolean;
  default_group_name: string;
  default_for_system_groups: string | null;
  allowed_system_groups: string[];
}

/** A default that is the creator alone is named as the reference names it. */
const defaultName = (value: StoredGroupSetting, creatorName: string) => (typeof value === 'string' ? value : creatorName);

function metadata(config: GroupPermissionConfig, defaultGroupName: string, defaultForSystemGroups: string | null = null): PermissionSettingMetadata {
  return {
    require_system_group: config.requireSystemGroup,
    allow_internet_group: config.allowInternet,
    allow_nobody_group: config.allowNobody,
    allow_everyone_group: config.allowEveryone,
    default_group_name: defaultGroupName,
    default_for_system_groups: defaultForSystemGroups,
    allowed_system_groups: [...(config.allowedSystemGroups ?? [])],
  };
}

let built: Record<'realm' | 'stream' | 'group', Record<string, PermissionSettingMetadata>> | undefined;

/** Built once: it depends on no realm. */
export function supportedPermissionSettings(): NonNullable<typeof built> {
  if (built) return built;
  // A placeholder creator: only whether a default is "the creator" matters here.
  const channelDefaults = defaultChannelGroups(0);
  const groupDefaults = defaultUserGroupSettings(0);
  built = {
    realm: Object.fromEntries(
      Object.entries(REALM_GROUP_PERMISSIONS).map(([name, config]) => [name, metadata(config, REALM_GROUP_SETTING_DEFAULTS[name as keyof typeof REALM_GROUP_SETTING_DEFAULTS])]),
    ),
    stream: Object.fromEntries(
      Object.entries(CHANNEL_GROUP_PERMISSIONS).map(([name, config]) => [
        name,
        metadata(config, defaultName(channelDefaults[name as keyof typeof channelDefaults], 'stream_creator_or_nobody')),
      ]),
    ),
    group: Object.fromEntries(
      Object.entries(USER_GROUP_PERMISSIONS).map(([name, config]) => [
        name,
        metadata(config, defaultName(groupDefaults[name as keyof typeof groupDefaults], 'group_creator'), 'role:nobody'),
      ]),
    ),
  };
  return built;
}
