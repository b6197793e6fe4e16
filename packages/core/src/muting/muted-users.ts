import type { Tx, User } from '../storage/types.js';

/** A muted user as the API shows one (openapi muted_users items). */
export interface ApiMutedUser {
  id: number;
  /** Unix seconds when the mute was made. */
  timestamp: number;
}

/** The user's muted users, oldest mute first: register's `muted_users` and the event's list. */
export async function mutedUsersOf(tx: Tx, user: User): Promise<ApiMutedUser[]> {
  return (await tx.mutedUsers.list(user.realmId, user.id)).map((m) => ({ id: m.mutedUserId, timestamp: m.dateMuted }));
}
