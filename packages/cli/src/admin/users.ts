/** How management commands show a user. */
import { ROLE, type Role, type User } from '@teamchat/core';

const ROLE_NAMES = new Map<Role, string>([
  [ROLE.owner, 'owner'],
  [ROLE.admin, 'admin'],
  [ROLE.moderator, 'moderator'],
  [ROLE.member, 'member'],
  [ROLE.guest, 'guest'],
]);

export const roleName = (role: Role) => ROLE_NAMES.get(role) ?? String(role);

/** A user as `--json` prints it. */
export function userSummary(user: User) {
  return {
    user_id: user.id,
    email: user.deliveryEmail,
    full_name: user.fullName,
    role: user.role,
    role_name: roleName(user.role),
    is_active: user.isActive,
    is_bot: user.isBot,
  };
}
