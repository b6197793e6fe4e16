/**
 * The realm's can_access_all_users_group: which users a user may access (see in user lists,
 * look up, hear about in realm_user events). The setting allows only role:everyone and
 * role:members, so it restricts guests alone. A guest outside it accesses themselves, every bot,
 * and the users who share a channel subscription or a direct conversation with them, as in the
 * reference (zerver/lib/users.py). Everything here is pure while the setting is role:everyone:
 * the unrestricted path reads nothing.
 */
import { err, ok, type Result } from 'neverthrow';
import { type ApiError, insufficientPermission } from '../errors.js';
import { realmGroupSetting } from '../settings/realm-settings.js';
import type { Realm, Tx, User } from '../storage/types.js';
import { hasRealmPermission } from './realm-rules.js';
import { isGuest } from './roles.js';

type RealmSettings = Pick<Realm, 'settings'>;

/** Whether everyone may access every user of the realm (the default, and the fast path). */
export function allUsersAccessibleInRealm(realm: RealmSettings): boolean {
  return realmGroupSetting(realm, 'can_access_all_users_group') === 'role:everyone';
}

/** Whether `viewer` may access every user. Spectators may: they see little of anyone already. */
export function canAccessAllUsers(viewer: User | null, realm: RealmSettings): boolean {
  if (!viewer || !isGuest(viewer) || allUsersAccessibleInRealm(realm)) return true;
  return hasRealmPermission(viewer, realm, 'can_access_all_users_group');
}

/**
 * IDs of the users who share something with `userId`: an active subscription to a channel
 * (active users only, as the reference's is_user_active) or a direct conversation (deactivated
 * users too, as the reference counts direct-message-group members). The user not included.
 */
export async function peerIds(tx: Tx, realmId: number, userId: number): Promise<Set<number>> {
  const streamIds = (await tx.subscriptions.forUser(realmId, userId)).filter((s) => s.active).map((s) => s.streamId);
  const bySubscription = streamIds.length > 0 ? await tx.subscriptions.subscribersByStream(realmId, streamIds) : new Map<number, number[]>();
  const peers = new Set<number>(await tx.messages.dmPeerIds(realmId, userId));
  for (const ids of bySubscription.values()) for (const id of ids) peers.add(id);
  peers.delete(userId);
  return peers;
}

/**
 * The human users `viewer` may access, or null when they may access everyone. Bots are always
 * accessible and are not listed: test with `isAccessible`.
 */
export async function accessibleUserIds(tx: Tx, realm: Realm, viewer: User | null): Promise<ReadonlySet<number> | null> {
  if (canAccessAllUsers(viewer, realm)) return null;
  const ids = await peerIds(tx, realm.id, viewer!.id);
  ids.add(viewer!.id);
  return ids;
}

/** Whether `user` is in an `accessibleUserIds` answer. */
export function isAccessible(accessible: ReadonlySet<number> | null, user: Pick<User, 'id' | 'isBot'>): boolean {
  return accessible === null || user.isBot || accessible.has(user.id);
}

/**
 * Splits `audience` into the users who may access `target` and those who may not: the audience
 * of realm_user events about the target. The target's peers are read only when a guest who is
 * restricted is in the audience.
 */
export async function splitByAccess(tx: Tx, realm: Realm, target: User, audience: readonly User[]): Promise<{ can: User[]; cannot: User[] }> {
  if (target.isBot || allUsersAccessibleInRealm(realm)) return { can: [...audience], cannot: [] };
  const restricted = (viewer: User) => viewer.id !== target.id && !canAccessAllUsers(viewer, realm);
  if (!audience.some(restricted)) return { can: [...audience], cannot: [] };
  const peers = await peerIds(tx, realm.id, target.id);
  const can: User[] = [];
  const cannot: User[] = [];
  for (const viewer of audience) (restricted(viewer) && !peers.has(viewer.id) ? cannot : can).push(viewer);
  return { can, cannot };
}

/**
 * The users among `targets` that `viewer` may not access (get_inaccessible_user_ids): never
 * themselves or a bot. Reads nothing unless the viewer is a restricted guest.
 */
export async function inaccessibleUsers<T extends Pick<User, 'id' | 'isBot'>>(tx: Tx, realm: Realm, viewer: User, targets: readonly T[]): Promise<T[]> {
  const candidates = targets.filter((t) => t.id !== viewer.id && !t.isBot);
  if (candidates.length === 0 || canAccessAllUsers(viewer, realm)) return [];
  const peers = await peerIds(tx, realm.id, viewer.id);
  return candidates.filter((t) => !peers.has(t.id));
}

/** The reference's check when one user reads another: "Insufficient permission" when inaccessible. */
export async function checkCanAccessUser(tx: Tx, realm: Realm, viewer: User, target: User): Promise<Result<User, ApiError>> {
  return (await inaccessibleUsers(tx, realm, viewer, [target])).length === 0 ? ok(target) : err(insufficientPermission());
}
