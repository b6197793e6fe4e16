import { err, ok, type Result } from 'neverthrow';
import { generateApiKey } from '../auth/api-key.js';
import { isoTimestamp } from '../clock.js';
import type { Ctx } from '../context.js';
import { type ApiError, badRequest } from '../errors.js';
import { announceUserAdded } from '../events/realm-user.js';
import { announceSystemGroupsJoined } from '../groups/system-group-events.js';
import { joinChannelsOnCreation, joinDefaultChannels } from '../channels/membership.js';
import { announceInvitesChanged, revokeInvitationsTo } from '../invites/records.js';
import { newUserSettings } from '../settings/realm-user-defaults.js';
import type { BotProfile, Realm, Role, Tx, User } from '../storage/types.js';
import { announceNewUser } from '../system-bots/new-users.js';

export interface UserSpec {
  email: string;
  fullName: string;
  /** Already hashed; null for accounts that log in only with their API key. */
  passwordHash: string | null;
  role: Role;
  isBot?: boolean;
  botType?: number | null;
  botOwnerId?: number | null;
  /** A bot's settings beyond its user row, stored before the bot is announced. */
  botProfile?: Omit<BotProfile, 'botId'>;
  /** Created through the API: date_joined moves to the first login (FL 475). */
  createdThroughApi?: boolean;
  canCreateUsers?: boolean;
  canChangeUserEmails?: boolean;
  /** Channels to join instead of the realm's default channels (an invitation's choice). */
  channelIds?: readonly number[];
  /** The referrer to tell of the new account (an invitation with notify_referrer_on_join). */
  notifyReferrerId?: number;
}

/** Inserts a user after checking that the email is free in the realm. Runs inside a transaction. */
export async function insertUser(ctx: Ctx, tx: Tx, realm: Realm, spec: UserSpec): Promise<Result<User, ApiError>> {
  if (await tx.users.byDeliveryEmail(realm.id, spec.email)) {
    return err(badRequest(`Email '${spec.email}' already in use`));
  }
  const isBot = spec.isBot ?? false;
  const user = await tx.users.insert({
    realmId: realm.id,
    deliveryEmail: spec.email,
    fullName: spec.fullName,
    passwordHash: spec.passwordHash,
    apiKey: generateApiKey(ctx),
    role: spec.role,
    isActive: true,
    isBot,
    botType: isBot ? (spec.botType ?? 1) : null,
    botOwnerId: isBot ? (spec.botOwnerId ?? null) : null,
    timezone: '',
    avatarSource: realm.defaultAvatarSource,
    avatarVersion: 1,
    dateJoined: isoTimestamp(ctx.clock),
    isImportedStub: false,
    awaitingFirstLogin: spec.createdThroughApi ?? false,
    canCreateUsers: spec.canCreateUsers ?? false,
    canChangeUserEmails: spec.canChangeUserEmails ?? false,
    ...newUserSettings(realm),
  });
  if (isBot && spec.botProfile) await tx.bots.put(realm.id, { ...spec.botProfile, botId: user.id });
  await announceUserAdded(ctx, tx, realm, user);
  await announceSystemGroupsJoined(ctx, tx, realm, user);
  if (spec.channelIds) await joinChannelsOnCreation(ctx, tx, realm, user, spec.channelIds);
  else await joinDefaultChannels(ctx, tx, realm, user);
  if (!isBot) {
    // Pending invitations to this address can no longer be accepted.
    const referrers = await revokeInvitationsTo(ctx, tx, realm, user.deliveryEmail);
    if (referrers.length > 0) await announceInvitesChanged(ctx, tx, realm, referrers);
    // Every way a person's account is made comes through here, so every one is announced.
    const announced = await announceNewUser(ctx, tx, realm, user, spec.notifyReferrerId);
    if (announced.isErr()) return err(announced.error);
  }
  return ok(user);
}
