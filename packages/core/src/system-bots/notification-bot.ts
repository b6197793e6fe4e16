/**
 * The Notification Bot: the system bot that sends the server's own messages (channel
 * announcements, topic-move breadcrumbs, reminders, failed scheduled messages). The reference
 * keeps it in an internal realm shared by all realms; here each realm has its own copy, marked
 * `isSystemBot`, so that every row stays realm-scoped. It is listed in register's
 * cross_realm_bots, never among the realm's users, and cannot log in (its API key is random,
 * never shown, and refused by authentication).
 */
import { ok } from 'neverthrow';
import { generateApiKey } from '../auth/api-key.js';
import { isoTimestamp } from '../clock.js';
import type { Ctx } from '../context.js';
import type { Realm, Tx, User } from '../storage/types.js';
import { ROLE } from '../access/roles.js';

/** The reference's address for it (settings.NOTIFICATION_BOT). */
export const NOTIFICATION_BOT_EMAIL = 'notification-bot@zulip.com';
export const NOTIFICATION_BOT_NAME = 'Notification Bot';

/**
 * The realm's Notification Bot, created on first need. The CLI gives every realm one when it
 * creates or serves it (ensureNotificationBots); other realms (embedders, tests, databases
 * from before) get theirs at their first notice. No event announces it, as
 * the reference's system bots exist before any client registers.
 */
export async function notificationBot(ctx: Ctx, tx: Tx, realm: Realm): Promise<User> {
  // A person who took the address first keeps it; the bot then uses a variant of it.
  const addresses = [NOTIFICATION_BOT_EMAIL, `notification-bot+${realm.id}@zulip.com`];
  for (const address of addresses) {
    const holder = await tx.users.byDeliveryEmail(realm.id, address);
    if (holder?.isSystemBot) return holder;
    if (!holder) return insertBot(ctx, tx, realm, address);
  }
  throw new Error(`realm ${realm.id}: every Notification Bot address is taken`);
}

function insertBot(ctx: Ctx, tx: Tx, realm: Realm, email: string): Promise<User> {
  return tx.users.insert({
    realmId: realm.id,
    deliveryEmail: email,
    fullName: NOTIFICATION_BOT_NAME,
    passwordHash: null,
    apiKey: generateApiKey(ctx),
    role: ROLE.member,
    isActive: true,
    isBot: true,
    botType: 1,
    botOwnerId: null,
    isSystemBot: true,
    timezone: '',
    avatarSource: 'G',
    avatarVersion: 1,
    dateJoined: isoTimestamp(ctx.clock),
    isImportedStub: false,
    awaitingFirstLogin: false,
    canCreateUsers: false,
    canChangeUserEmails: false,
    emailAddressVisibility: 1,
  });
}

/** Whether a user is one of the realm's people and bots (not a system bot). */
export const isRealmMember = (user: User) => !user.isSystemBot;

/** Gives every realm its Notification Bot (at server start: realms created before it existed). */
export async function ensureNotificationBots(ctx: Ctx): Promise<void> {
  for (const realm of await ctx.storage.read((tx) => tx.realms.all())) {
    await ctx.storage.transaction(async (tx) => ok(await notificationBot(ctx, tx, realm)));
  }
}
