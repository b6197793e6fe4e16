import { isAdmin, isGuest, isModeratorOrAbove, isOwner } from '../access/roles.js';
import {
  canCreatePrivateChannels,
  canCreatePublicChannels,
  canCreateWebPublicChannels,
  canSubscribeOthers,
} from '../access/channel-rules.js';
import { withUserGroupIds } from '../access/group-membership.js';
import { hasRealmPermission } from '../access/realm-rules.js';
import { accessibleUserIds, isAccessible } from '../access/user-access.js';
import { avatarUrl } from '../format/avatar.js';
import { profileDataByUser } from '../format/profile-field.js';
import { apiEmail, formatInaccessibleUser, formatUser } from '../format/user.js';
import type { User } from '../storage/types.js';
import { defineSection } from './sections.js';

/**
 * The `realm_user` section (SHAPES.md 2.6): active and deactivated users, the cross-realm
 * system bots (cross_realm_bots, with is_system_bot), and the requester's own keys. A guest
 * restricted by can_access_all_users_group gets the users they may not access as "Unknown user"
 * placeholders (all active, so in realm_users, as in the reference), or not at all with the
 * user_list_incomplete capability.
 */
export const realmUserSection = defineSection({
  key: 'realm_user',
  async fetch(_ctx, tx, { realm, user: viewer }, options) {
    const everyone = await tx.users.list(realm.id);
    const users = everyone.filter((u) => !u.isSystemBot);
    const view = {
      viewer,
      clientGravatar: options.clientGravatar,
      includeCustomProfileFields: true,
      profileData: await profileDataByUser(tx, realm.id),
    };
    const accessible = await accessibleUserIds(tx, realm, viewer);
    const placeholders = options.capabilities.has('user_list_incomplete')
      ? []
      : users.filter((u) => !isAccessible(accessible, u)).map((u) => formatInaccessibleUser(realm, u.id));
    const listed = (active: boolean) => (u: User) => u.isActive === active && isAccessible(accessible, u);
    const state = {
      realm_users: [...users.filter(listed(true)).map((u) => formatUser(realm, u, view)), ...placeholders],
      realm_non_active_users: users.filter(listed(false)).map((u) => formatUser(realm, u, view)),
      // The reference hides that they are self-owned: bot_owner_id is null.
      cross_realm_bots: everyone
        .filter((u) => u.isSystemBot)
        .sort((a, b) => a.fullName.localeCompare(b.fullName))
        .map((u) => formatUser(realm, u, view)),
    };
    if (!viewer) return state;
    // With the user-defined groups the viewer is in, which the realm's permission settings may name.
    const [me] = await withUserGroupIds(tx, realm.id, [users.find((u) => u.id === viewer.id) ?? viewer]);
    if (!me) return state;
    return {
      ...state,
      user_id: me.id,
      email: apiEmail(realm, me),
      delivery_email: me.deliveryEmail,
      full_name: me.fullName,
      avatar_source: me.avatarSource,
      avatar_url: avatarUrl(realm, me, false),
      avatar_url_medium: avatarUrl(realm, me, false, true),
      is_admin: isAdmin(me),
      is_owner: isOwner(me),
      is_moderator: isModeratorOrAbove(me),
      is_guest: isGuest(me),
      can_create_streams: canCreatePublicChannels(me, realm) || canCreatePrivateChannels(me, realm),
      can_create_public_streams: canCreatePublicChannels(me, realm),
      can_create_private_streams: canCreatePrivateChannels(me, realm),
      can_create_web_public_streams: canCreateWebPublicChannels(me, realm),
      can_subscribe_other_users: canSubscribeOthers(me, realm),
      can_invite_others_to_realm: hasRealmPermission(me, realm, 'can_invite_users_group'),
    };
  },
});
