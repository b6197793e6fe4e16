/**
 * realm_user events when can_access_all_users_group access follows a subscription change
 * (zerver/actions/streams.py send_user_creation_events_on_adding_subscriptions and
 * send_user_remove_events_on_removing_subscriptions). A restricted guest who starts sharing a
 * channel with a user gets that user's full record (op add); one who stops sharing the last
 * thing with them gets op remove with the "Unknown user" name. Nothing is read while the
 * setting is role:everyone. Archiving a channel keeps its subscriptions, so access and these
 * events are unchanged by it, as in the reference.
 *
 * One deliberate difference: bots are always accessible, so no guest is told of a bot here
 * (the reference would add a bot again, or remove it, as it does any other subscriber).
 */
import { allUsersAccessibleInRealm, canAccessAllUsers, peerIds } from '../access/user-access.js';
import type { Ctx } from '../context.js';
import { INACCESSIBLE_USER_NAME } from '../format/user.js';
import type { Realm, Tx, User } from '../storage/types.js';
import { publishOnCommit } from './publish.js';
import type { RealmUserEvent } from './union/users.js';
import { publishUserAdd } from './realm-user.js';

/** Who shared a subscription or conversation with each user, read before the change; null when unrestricted. */
export type PeersBefore = ReadonlyMap<number, ReadonlySet<number>> | null;

/** Each user's peers now, to compare with after an added subscription; reads nothing when unrestricted. */
export async function peersBeforeChange(tx: Tx, realm: Realm, users: readonly User[]): Promise<PeersBefore> {
  if (allUsersAccessibleInRealm(realm)) return null;
  const peers = new Map<number, ReadonlySet<number>>();
  for (const user of users) peers.set(user.id, await peerIds(tx, realm.id, user.id));
  return peers;
}

/** Channels each user joined (or left), keyed by user. */
type Changes = ReadonlyMap<User, readonly number[]>;

/**
 * After users joined channels: each joiner's full record to the restricted subscribers of those
 * channels who could not access them before, and to a restricted joiner the subscribers they
 * could not access before.
 */
export async function announceAccessGained(ctx: Ctx, tx: Tx, realm: Realm, joined: Changes, before: PeersBefore): Promise<void> {
  if (!before) return;
  const { subscribersOf } = await subscribersAfter(tx, realm, joined);
  for (const [user, streamIds] of joined) {
    const known = before.get(user.id) ?? new Set<number>();
    const met = subscribersOf(streamIds).filter((other) => other.id !== user.id && !known.has(other.id));
    if (!user.isBot) await publishUserAdd(ctx, tx, realm, user, met.filter((viewer) => !canAccessAllUsers(viewer, realm)));
    if (canAccessAllUsers(user, realm)) continue;
    for (const other of met) if (!other.isBot) await publishUserAdd(ctx, tx, realm, other, [user]);
  }
}

/**
 * After users left channels: `remove` of each leaver to the restricted subscribers of those
 * channels who no longer share anything with them, and to a restricted leaver of each such
 * subscriber.
 */
export async function announceAccessLost(ctx: Ctx, tx: Tx, realm: Realm, left: Changes): Promise<void> {
  if (allUsersAccessibleInRealm(realm)) return;
  const { subscribersOf } = await subscribersAfter(tx, realm, left);
  for (const [user, streamIds] of left) {
    const peers = await peerIds(tx, realm.id, user.id);
    const parted = subscribersOf(streamIds).filter((other) => other.id !== user.id && !peers.has(other.id));
    const viewers = user.isBot ? [] : parted.filter((viewer) => !canAccessAllUsers(viewer, realm)).map((v) => v.id);
    publishOnCommit(ctx, tx, { realmId: realm.id, userIds: viewers, event: removal(user.id) });
    if (canAccessAllUsers(user, realm)) continue;
    for (const other of parted) if (!other.isBot) publishOnCommit(ctx, tx, { realmId: realm.id, userIds: [user.id], event: removal(other.id) });
  }
}

const removal = (userId: number): RealmUserEvent => ({ type: 'realm_user', op: 'remove', person: { user_id: userId, full_name: INACCESSIBLE_USER_NAME } });

/** The active subscribers, now, of the channels in `changes`, as users. */
async function subscribersAfter(tx: Tx, realm: Realm, changes: Changes) {
  const streamIds = [...new Set([...changes.values()].flat())];
  const byStream = await tx.subscriptions.subscribersByStream(realm.id, streamIds);
  const users = new Map((await tx.users.list(realm.id)).map((u) => [u.id, u]));
  const subscribersOf = (ids: readonly number[]) => {
    const found = new Set(ids.flatMap((id) => byStream.get(id) ?? []));
    return [...found].sort((a, b) => a - b).flatMap((id) => users.get(id) ?? []);
  };
  return { subscribersOf };
}
