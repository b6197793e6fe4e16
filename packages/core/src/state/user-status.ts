import { accessibleUserIds, isAccessible } from '../access/user-access.js';
import { type ApiUserStatus, formatUserStatus, isBlankStatus } from '../format/user-status.js';
import { defineSection } from './sections.js';

/**
 * The `user_status` section (SHAPES.md 2.4): the statuses of the realm's active
 * users that say something, keyed by user ID as a string, limited to the users the caller may
 * access. Only users with a stored status are read, not the whole realm. Spectators get `{}`.
 */
export const userStatusSection = defineSection({
  key: 'user_status',
  async fetch(_ctx, tx, { realm, user: viewer }) {
    if (!viewer) return { user_status: {} };
    const rows = await tx.userStatuses.list(realm.id);
    if (rows.length === 0) return { user_status: {} };
    const users = new Map((await tx.users.list(realm.id, rows.map((r) => r.userId))).map((u) => [u.id, u]));
    const accessible = await accessibleUserIds(tx, realm, viewer);
    const statuses: Record<string, ApiUserStatus> = {};
    for (const row of rows) {
      const user = users.get(row.userId);
      if (!user?.isActive || !isAccessible(accessible, user) || isBlankStatus(user, row)) continue;
      statuses[String(user.id)] = formatUserStatus(user, row);
    }
    return { user_status: statuses };
  },
});
