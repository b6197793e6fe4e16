/**
 * Who may see and do what with a channel: the reference's rules (zerver/lib/streams.py) over
 * roles and the channel's group settings. Pure functions of the user, the channel and whether
 * the user is subscribed; every endpoint and every event audience goes through them.
 */
import { CHANNEL_GROUP_PERMISSIONS } from '../settings/realm-group-permissions.js';
import type { Realm, Stream, StoredGroupSetting } from '../storage/types.js';
import { hasRealmPermission } from './realm-rules.js';
import { isAdmin, isGuest } from './roles.js';
import { type GroupMember, inGroupSetting } from './system-groups.js';

type Person = GroupMember;

/** The channel-level `can_*_group` settings (SHAPES.md 5.3) and their defaults for a new channel. */
export const CHANNEL_GROUP_SETTINGS = [
  'can_add_subscribers_group',
  'can_administer_channel_group',
  'can_create_topic_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
  'can_move_messages_out_of_channel_group',
  'can_move_messages_within_channel_group',
  'can_remove_subscribers_group',
  'can_resolve_topics_group',
  'can_send_message_group',
  'can_subscribe_group',
] as const;

export type ChannelGroupSetting = (typeof CHANNEL_GROUP_SETTINGS)[number];

/** The reference's defaults; the creator alone administers a channel they create. */
export function defaultChannelGroups(creatorId: number | null): Record<ChannelGroupSetting, StoredGroupSetting> {
  return {
    can_add_subscribers_group: 'role:nobody',
    can_administer_channel_group: creatorId === null ? 'role:nobody' : { direct_members: [creatorId], direct_subgroups: [] },
    can_create_topic_group: 'role:everyone',
    can_delete_any_message_group: 'role:nobody',
    can_delete_own_message_group: 'role:nobody',
    can_move_messages_out_of_channel_group: 'role:nobody',
    can_move_messages_within_channel_group: 'role:nobody',
    can_remove_subscribers_group: 'role:administrators',
    can_resolve_topics_group: 'role:nobody',
    can_send_message_group: 'role:everyone',
    can_subscribe_group: 'role:nobody',
  };
}

/** A channel's setting, falling back to the default for channels stored without it. */
export function channelGroup(stream: Stream, name: ChannelGroupSetting): StoredGroupSetting {
  return stream.groupSettings[name] ?? defaultChannelGroups(stream.creatorId)[name];
}

/** Group settings that never include guests (the reference's allow_everyone_group=False). */
const inNonGuestGroup = (user: Person, stream: Stream, name: ChannelGroupSetting) =>
  !isGuest(user) && inGroupSetting(user, channelGroup(stream, name));

/** Whether the user administers the channel (name, description, archiving): admins and the channel's administrators. */
export const canAdministerChannel = (user: Person, stream: Stream) =>
  isAdmin(user) || inNonGuestGroup(user, stream, 'can_administer_channel_group');

/** Content access: may read its messages and join it (user_has_content_access). */
export function hasContentAccess(user: Person, stream: Stream, subscribed: boolean): boolean {
  if (stream.isWebPublic || subscribed) return true;
  if (isGuest(user)) return false;
  if (!stream.inviteOnly) return true;
  return inNonGuestGroup(user, stream, 'can_subscribe_group') || inNonGuestGroup(user, stream, 'can_add_subscribers_group');
}

/**
 * Metadata access: may know the channel exists and see its settings (user_has_metadata_access).
 * A private channel is invisible to everyone else, in every endpoint and every event.
 */
export function hasMetadataAccess(user: Person, stream: Stream, subscribed: boolean): boolean {
  if (hasContentAccess(user, stream, subscribed)) return true;
  if (isGuest(user)) return false;
  return isAdmin(user) || canAdministerChannel(user, stream);
}

/**
 * Whether the user may see who is subscribed (validate_user_access_to_subscribers, with the
 * channel's administrators among those who may, as for the reference's peer events). Under these
 * rules it is exactly metadata access: whoever may see a channel and its subscriber_count may
 * see who the subscribers are, so the counts and the lists clients keep agree.
 */
export const canSeeSubscribers = (user: Person, stream: Stream, subscribed: boolean) => hasMetadataAccess(user, stream, subscribed);

/** The error text of `canSeeSubscribers` refusing, as the reference words it. */
export const subscribersRefusal = (user: Person, stream: Stream) =>
  isGuest(user) && !stream.inviteOnly ? 'Subscriber data is not available for this channel' : 'Unable to retrieve subscribers for private channel';

/** Whether the user may post to the channel (can_send_message_group; admins are not exempt). */
export const canPostToChannel = (user: Person, stream: Stream) => inGroupSetting(user, channelGroup(stream, 'can_send_message_group'));

/** Whether the user may unsubscribe others (bulk_can_remove_subscribers_from_streams). */
export function canRemoveSubscribers(user: Person, stream: Stream, subscribed: boolean): boolean {
  if (isAdmin(user)) return true;
  if (isGuest(user)) return false;
  if (canAdministerChannel(user, stream)) return true;
  return hasMetadataAccess(user, stream, subscribed) && inNonGuestGroup(user, stream, 'can_remove_subscribers_group');
}

type RealmPermissions = Pick<Realm, 'settings'>;

/** Whether the user may subscribe others to channels they can access (the realm's can_add_subscribers_group). */
export const canSubscribeOthers = (user: Person, realm: RealmPermissions) => hasRealmPermission(user, realm, 'can_add_subscribers_group');

/** The realm's channel-creation group settings (FACTS.md 8.1). */
export const canCreatePublicChannels = (user: Person, realm: RealmPermissions) => hasRealmPermission(user, realm, 'can_create_public_channel_group');
export const canCreatePrivateChannels = (user: Person, realm: RealmPermissions) => hasRealmPermission(user, realm, 'can_create_private_channel_group');
/** Web-public channels: the realm's can_create_web_public_channel_group, where the realm allows spectators at all. */
export const canCreateWebPublicChannels = (user: Person, realm: Pick<Realm, 'webPublicAccessEnabled' | 'settings'>) =>
  realm.webPublicAccessEnabled && hasRealmPermission(user, realm, 'can_create_web_public_channel_group');

/** The deprecated `stream_post_policy` the reference derives from can_send_message_group. */
export function streamPostPolicy(stream: Stream): number {
  const group = channelGroup(stream, 'can_send_message_group');
  const byGroup: Record<string, number> = { 'role:administrators': 2, 'role:fullmembers': 3, 'role:moderators': 4 };
  return typeof group === 'string' ? (byGroup[group] ?? 1) : 1;
}

/**
 * Whether the user is in a channel's group setting, under the setting's configuration: a
 * setting that may not name everyone never includes guests (user_has_permission_for_group_setting).
 */
export const inChannelGroupSetting = (user: Person, stream: Stream, name: ChannelGroupSetting) =>
  (CHANNEL_GROUP_PERMISSIONS[name].allowEveryone || !isGuest(user)) && inGroupSetting(user, channelGroup(stream, name));

/** The settings whose change needs content access to the channel (stream_permission_group_settings_requiring_content_access). */
export const CHANNEL_SETTINGS_REQUIRING_CONTENT_ACCESS: readonly ChannelGroupSetting[] = ['can_add_subscribers_group', 'can_subscribe_group'];

/** The settings that decide who may see the channel (stream_permission_group_settings_granting_metadata_access). */
export const CHANNEL_SETTINGS_GRANTING_METADATA_ACCESS: readonly ChannelGroupSetting[] = [
  'can_add_subscribers_group',
  'can_administer_channel_group',
  'can_subscribe_group',
];

/** Whether the user may start a topic in the channel (check_user_can_create_new_topics). */
export const canCreateTopics = (user: Person, stream: Stream) => inChannelGroupSetting(user, stream, 'can_create_topic_group');

/**
 * Whether the user may subscribe others to a channel they can read
 * (get_streams_to_which_user_cannot_add_subscribers): the realm's can_add_subscribers_group,
 * administrators, the channel's administrators and its can_add_subscribers_group.
 */
export function canAddSubscribers(user: Person, realm: RealmPermissions, stream: Stream): boolean {
  if (canSubscribeOthers(user, realm) || isAdmin(user)) return true;
  return canAdministerChannel(user, stream) || inChannelGroupSetting(user, stream, 'can_add_subscribers_group');
}

/** Whether the user may change the channel's delete permissions: administrators and the realm's can_set_delete_message_policy_group. */
export const canSetDeleteMessagePolicy = (user: Person, realm: RealmPermissions) =>
  isAdmin(user) || hasRealmPermission(user, realm, 'can_set_delete_message_policy_group');
