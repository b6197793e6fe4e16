/**
 * Which groups each realm and channel permission setting may name: the reference's
 * GroupPermissionSetting of Realm.REALM_PERMISSION_GROUP_SETTINGS and
 * Stream.stream_permission_group_settings. `allowEveryone` false also means guests never hold
 * the permission, whatever the setting names.
 */
import type { ChannelGroupSetting } from '../access/channel-rules.js';
import type { SystemGroupName } from '../access/system-groups.js';
import type { RealmGroupSettingName } from './realm-settings.js';

export interface GroupPermissionConfig {
  /** Only a system group may be named (no user-defined or anonymous group). */
  requireSystemGroup: boolean;
  allowInternet: boolean;
  allowNobody: boolean;
  allowEveryone: boolean;
  /** When set, the only system groups that may be named. */
  allowedSystemGroups?: readonly SystemGroupName[];
}

const config = (allowEveryone: boolean, extra: Partial<GroupPermissionConfig> = {}): GroupPermissionConfig => ({
  requireSystemGroup: false,
  allowInternet: false,
  allowNobody: true,
  allowEveryone,
  ...extra,
});

export const REALM_GROUP_PERMISSIONS: Record<RealmGroupSettingName, GroupPermissionConfig> = {
  can_access_all_users_group: config(true, { requireSystemGroup: true, allowNobody: false, allowedSystemGroups: ['role:everyone', 'role:members'] }),
  can_add_custom_emoji_group: config(false),
  can_add_subscribers_group: config(false),
  can_create_bots_group: config(false),
  can_create_groups: config(false),
  can_create_private_channel_group: config(false),
  can_create_public_channel_group: config(false),
  can_create_web_public_channel_group: config(false, {
    requireSystemGroup: true,
    allowedSystemGroups: ['role:moderators', 'role:administrators', 'role:owners', 'role:nobody'],
  }),
  can_create_write_only_bots_group: config(false),
  can_delete_any_message_group: config(false),
  can_delete_own_message_group: config(true),
  can_invite_users_group: config(false),
  can_manage_all_groups: config(false, { allowNobody: false }),
  can_manage_billing_group: config(false, { allowNobody: false }),
  can_mention_many_users_group: config(true),
  can_move_messages_between_channels_group: config(false),
  can_move_messages_between_topics_group: config(true),
  can_resolve_topics_group: config(true),
  can_set_delete_message_policy_group: config(false),
  can_set_topics_policy_group: config(true),
  can_summarize_topics_group: config(true),
  create_multiuse_invite_group: config(false),
  direct_message_initiator_group: config(true),
  direct_message_permission_group: config(true),
};

/**
 * As zerver/models/streams.py configures them: only the three settings that grant access to the
 * channel itself (adding subscribers, administering, subscribing) leave out `role:everyone`
 * and guests; the others may name everyone, guests included.
 */
export const CHANNEL_GROUP_PERMISSIONS: Record<ChannelGroupSetting, GroupPermissionConfig> = {
  can_add_subscribers_group: config(false),
  can_administer_channel_group: config(false),
  can_create_topic_group: config(true),
  can_delete_any_message_group: config(true),
  can_delete_own_message_group: config(true),
  can_move_messages_out_of_channel_group: config(true),
  can_move_messages_within_channel_group: config(true),
  can_remove_subscribers_group: config(true),
  can_resolve_topics_group: config(true),
  can_send_message_group: config(true),
  can_subscribe_group: config(false),
};
