import type { Tx, User } from '../storage/types.js';

/** Past this many kept users (of every realm of a storage) the cache starts over. */
const LIMIT = 100_000;

/** Per storage (message and user IDs are unique only within one): the users' state token and the users read under it. */
const caches = new WeakMap<object, { token: number; users: Map<number, Readonly<User>> }>();

/**
 * The realm's users among `ids` (senders and direct participants a page names), by ID. They
 * are kept per process under the users' state token (UserStore.stateToken), read in the
 * caller's snapshot: any write to any user, by any process on the database, changes the token,
 * and a page read under a new token reads its users again. Kept users are frozen, shared by
 * every page. Only for read transactions: a write transaction's uncommitted users must not be kept.
 */
export async function pageUsers(tx: Tx, storage: object, realmId: number, ids: readonly number[]): Promise<Map<number, Readonly<User>>> {
  const token = await tx.users.stateToken();
  let kept = caches.get(storage);
  if (!kept || kept.token !== token) caches.set(storage, (kept = { token, users: new Map() }));
  const users = new Map<number, Readonly<User>>();
  const missing: number[] = [];
  for (const id of ids) {
    const user = kept.users.get(id);
    if (user && user.realmId === realmId) users.set(id, user);
    else missing.push(id);
  }
  if (missing.length > 0) {
    if (kept.users.size + missing.length > LIMIT) kept.users.clear();
    for (const user of await tx.users.list(realmId, missing)) {
      const frozen = Object.freeze(user);
      Object.freeze(frozen.settings);
      kept.users.set(user.id, frozen);
      users.set(user.id, frozen);
    }
  }
  return users;
}
