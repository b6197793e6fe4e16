/**
 * realm_user and realm_bot events (API.md 6, SHAPES.md 4.13–4.14). Every user change of the
 * users area is announced through these, after commit, to the users who may see it.
 */
import { splitByAccess } from '../access/user-access.js';
import { canSeeDeliveryEmail } from '../access/users.js';
import type { Ctx } from '../context.js';
import { avatarUrl } from '../format/avatar.js';
import { profileDataByUser } from '../format/profile-field.js';
import { formatInaccessibleUser, formatUser } from '../format/user.js';
import type { Realm, Tx, User } from '../storage/types.js';
import { publishOnCommit } from './publish.js';
import type { PersonUpdateFields } from './union/users.js';
import { announceBot } from './realm-bot.js';

const activeUsers = async (tx: Tx, realmId: number) => (await tx.users.list(realmId)).filter((u) => u.isActive);

/**
 * The active users who may access `target` under can_access_all_users_group: the audience of
 * every realm_user event about the target (all active users while the setting is role:everyone).
 */
export async function accessingUsers(tx: Tx, realm: Realm, target: User): Promise<User[]> {
  return (await splitByAccess(tx, realm, target, await activeUsers(tx, realm.id))).can;
}

/**
 * `realm_user` op `add` with the full user record. Viewers who may see the real email get it;
 * the others get null. Avatar URLs follow each queue's client_gravatar. Guests who may not
 * access the new user get an "Unknown user" placeholder instead, except on queues registered
 * with user_list_incomplete, which get nothing.
 */
export async function announceUserAdded(ctx: Ctx, tx: Tx, realm: Realm, user: User): Promise<void> {
  const { can: audience, cannot } = await splitByAccess(tx, realm, user, await activeUsers(tx, realm.id));
  publishOnCommit(ctx, tx, {
    realmId: realm.id,
    userIds: cannot.map((v) => v.id),
    event: { type: 'realm_user', op: 'add', person: formatInaccessibleUser(realm, user.id) },
    tailoring: { onlyIf: { capability: 'user_list_incomplete', declared: false } },
  });
  await publishUserAdd(ctx, tx, realm, user, audience);
  if (user.isBot) await announceBot(ctx, tx, realm, user, 'add');
}

/**
 * `realm_user` op `add` of `user`'s full record to `viewers` (notify_created_user): on creation,
 * and when a restricted guest gains access to a user. Viewers who may see the real email get it.
 */
export async function publishUserAdd(ctx: Ctx, tx: Tx, realm: Realm, user: User, viewers: readonly User[]): Promise<void> {
  if (viewers.length === 0) return;
  // Read rather than assumed empty, so that the record always equals what register gives.
  const profileData = await profileDataByUser(tx, realm.id, [user.id]);
  for (const seesEmail of [true, false]) {
    const group = viewers.filter((viewer) => canSeeDeliveryEmail(viewer, user) === seesEmail);
    if (group.length === 0) continue;
    const person = (clientGravatar: boolean) => ({
      ...formatUser(realm, user, { viewer: group[0]!, clientGravatar, includeCustomProfileFields: !user.isBot, profileData }),
    });
    publishOnCommit(ctx, tx, {
      realmId: realm.id,
      userIds: group.map((v) => v.id),
      event: { type: 'realm_user', op: 'add', person: person(false) },
      tailoring: { clientGravatar: { type: 'realm_user', op: 'add', person: person(true) } },
    });
  }
}

/** `realm_user` op `update` with one person form about `target`, to the users who may access it. */
export async function announcePersonUpdate(ctx: Ctx, tx: Tx, realm: Realm, target: User, fields: PersonUpdateFields): Promise<void> {
  const audience = await accessingUsers(tx, realm, target);
  publishOnCommit(ctx, tx, {
    realmId: realm.id,
    userIds: audience.map((u) => u.id),
    event: { type: 'realm_user', op: 'update', person: { user_id: target.id, ...fields } },
  });
}

/**
 * The avatar person form. The URLs are always real, whatever the queue's client_gravatar, as in
 * the reference: the user's own client keeps them as its own `avatar_url` (which register never
 * nulls), and a client that computes gravatars can use a real URL just as well.
 */
export async function announceAvatarUpdate(ctx: Ctx, tx: Tx, realm: Realm, user: User): Promise<void> {
  const audience = await accessingUsers(tx, realm, user);
  publishOnCommit(ctx, tx, {
    realmId: realm.id,
    userIds: audience.map((u) => u.id),
    event: {
      type: 'realm_user',
      op: 'update',
      person: {
        user_id: user.id,
        avatar_source: user.avatarSource,
        avatar_url: avatarUrl(realm, user, false),
        avatar_url_medium: avatarUrl(realm, user, false, true),
        avatar_version: user.avatarVersion,
      },
    },
  });
}

/**
 * The delivery email person form: the new address to those who may see it now, and null to
 * those who could see `before` but not `after` (they lost access). Also the avatar form when
 * the avatar URL depends on the change.
 */
export async function announceDeliveryEmail(ctx: Ctx, tx: Tx, realm: Realm, before: User, after: User): Promise<void> {
  const audience = await accessingUsers(tx, realm, after);
  const sees = audience.filter((viewer) => canSeeDeliveryEmail(viewer, after));
  const lost = audience.filter((viewer) => canSeeDeliveryEmail(viewer, before) && !canSeeDeliveryEmail(viewer, after));
  publishOnCommit(ctx, tx, {
    realmId: realm.id,
    userIds: sees.map((u) => u.id),
    event: { type: 'realm_user', op: 'update', person: { user_id: after.id, delivery_email: after.deliveryEmail } },
  });
  publishOnCommit(ctx, tx, {
    realmId: realm.id,
    userIds: lost.map((u) => u.id),
    event: { type: 'realm_user', op: 'update', person: { user_id: after.id, delivery_email: null } },
  });
  // An external-service avatar is derived from the delivery email, and under client_gravatar it
  // is sent as null only while everyone may see that email: either change moves the avatar URL.
  const gravatarMoved =
    before.deliveryEmail !== after.deliveryEmail ||
    (before.emailAddressVisibility === 1) !== (after.emailAddressVisibility === 1);
  if (after.avatarSource === 'G' && gravatarMoved) await announceAvatarUpdate(ctx, tx, realm, after);
}
