/**
 * The Notification Bot's notices about a new person (the reference's process_new_human_user
 * and notify_new_user), sent inside the transaction that creates the account: a DM to the
 * referrer who asked to hear of it (an invitation's notify_referrer_on_join) while they are
 * active, then "joined this organization." in the realm's signup announcements channel, in
 * the topic "signups", unless the person is the realm's first. Bots get neither.
 */
import { ok, type Result } from 'neverthrow';
import type { Ctx } from '../context.js';
import type { ApiError } from '../errors.js';
import { realmSetting } from '../settings/realm-settings.js';
import type { Realm, Tx, User } from '../storage/types.js';
import { isRealmMember } from './notification-bot.js';
import { sendNotificationBotMessage } from './send.js';
import { silentMention } from './syntax.js';

export const SIGNUPS_TOPIC = 'signups';

/** Sends both notices a new human account calls for; `referrerId` when the invitation asked. */
export async function announceNewUser(ctx: Ctx, tx: Tx, realm: Realm, user: User, referrerId?: number): Promise<Result<void, ApiError>> {
  if (referrerId !== undefined) {
    const sent = await notifyReferrer(ctx, tx, realm, user, referrerId);
    if (sent.isErr()) return sent;
  }
  return announceSignup(ctx, tx, realm, user);
}

async function notifyReferrer(ctx: Ctx, tx: Tx, realm: Realm, user: User, referrerId: number): Promise<Result<void, ApiError>> {
  const referrer = await tx.users.byId(realm.id, referrerId);
  if (!referrer?.isActive) return ok(undefined);
  const content = `${silentMention(user)} accepted your invitation to join Zulip!`;
  return (await sendNotificationBotMessage(ctx, tx, realm, { to: { userIds: [referrer.id] }, content })).map(() => undefined);
}

async function announceSignup(ctx: Ctx, tx: Tx, given: Realm, user: User): Promise<Result<void, ApiError>> {
  // The setting as stored now: operator callers may hold a realm read before it changed.
  const realm = (await tx.realms.byId(given.id)) ?? given;
  const channelId = realmSetting(realm, 'signup_announcements_stream_id');
  if (channelId < 0) return ok(undefined);
  const channel = await tx.streams.byId(realm.id, channelId);
  if (!channel || channel.isArchived) return ok(undefined);
  // realm_user_count: the realm's active people; the first one is not announced.
  const people = (await tx.users.list(realm.id)).filter((u) => u.isActive && !u.isBot && isRealmMember(u));
  if (people.length <= 1) return ok(undefined);
  const content = `${silentMention(user)} joined this organization.`;
  return (await sendNotificationBotMessage(ctx, tx, realm, { to: { channelId, topic: SIGNUPS_TOPIC }, content })).map(() => undefined);
}
