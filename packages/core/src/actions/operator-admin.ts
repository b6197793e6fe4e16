/**
 * The server operator's management operations (the reference's `manage.py` commands: list
 * realms and users, deactivate, reactivate, regenerate an API key, send a message). Each finds
 * its user by email in a realm and runs the API's own operation with the proper caller, so that
 * every rule of that operation (the last owner, a bot's name, a channel's archive state) applies
 * as it does to a request.
 */
import { err, ok, type Result } from 'neverthrow';
import { isOwner } from '../access/roles.js';
import type { Ctx } from '../context.js';
import { type ApiError, badRequest } from '../errors.js';
import type { Actor } from '../operation.js';
import type { Realm, User } from '../storage/types.js';
import { sendNotificationBotMessageNow } from '../system-bots/send.js';
import { isRealmMember } from '../system-bots/notification-bot.js';
import { actorIn } from '../transaction.js';
import { doRegenerateApiKey } from './api-keys.js';
import { doDeactivateBot, doRegenerateBotApiKey } from './bot-lifecycle.js';
import { doSendMessage } from './send-message.js';
import { doDeactivateUser, doReactivateUser } from './user-activation.js';

/** Every realm of the installation, by ID. */
export async function listRealms(ctx: Ctx): Promise<Realm[]> {
  const realms = await ctx.storage.read((tx) => tx.realms.all());
  return [...realms].sort((a, b) => a.id - b.id);
}

/** The realm's accounts by ID: people and bots, active or not (the system bots are not members). */
export async function listUsersAsOperator(ctx: Ctx, realm: Realm): Promise<User[]> {
  return (await ctx.storage.read((tx) => tx.users.list(realm.id))).filter(isRealmMember);
}

/** The realm's account with this delivery email (case-insensitive), active or not. */
export async function findUserAsOperator(ctx: Ctx, realm: Realm, email: string): Promise<Result<User, ApiError>> {
  const user = await ctx.storage.read((tx) => tx.users.byDeliveryEmail(realm.id, email.trim()));
  return user && isRealmMember(user) ? ok(user) : err(badRequest(`No user with email '${email}' in realm '${realm.url}'`));
}

/**
 * Who acts for the operator in operations that need an administrator: the realm's longest-
 * standing active owner (an owner may do all that these operations allow anyone).
 */
async function operatorActor(ctx: Ctx, realm: Realm): Promise<Result<Actor, ApiError>> {
  const actor = await ctx.storage.read(async (tx) => {
    const owner = (await tx.users.list(realm.id)).find((u) => u.isActive && !u.isBot && isOwner(u));
    return owner && actorIn(tx, realm.id, owner.id);
  });
  return actor ? ok(actor) : err(badRequest(`Realm '${realm.url}' has no active owner, or is deactivated`));
}

/** Deactivates an account (a person with their bots, or a bot) as the API's DELETE /users/{id} or /bots/{id} would. */
export async function deactivateUserAsOperator(ctx: Ctx, realm: Realm, email: string): Promise<Result<User, ApiError>> {
  const user = await findUserAsOperator(ctx, realm, email);
  if (user.isErr()) return err(user.error);
  if (!user.value.isActive) return err(badRequest(`User '${user.value.deliveryEmail}' is already deactivated`));
  const actor = await operatorActor(ctx, realm);
  if (actor.isErr()) return err(actor.error);
  const done = user.value.isBot
    ? await doDeactivateBot(ctx, actor.value, { bot_id: user.value.id })
    : await doDeactivateUser(ctx, actor.value, { user_id: user.value.id });
  if (done.isErr()) return err(done.error);
  return findUserAsOperator(ctx, realm, email);
}

/** Reactivates a deactivated account as POST /users/{id}/reactivate would. */
export async function reactivateUserAsOperator(ctx: Ctx, realm: Realm, email: string): Promise<Result<User, ApiError>> {
  const user = await findUserAsOperator(ctx, realm, email);
  if (user.isErr()) return err(user.error);
  const actor = await operatorActor(ctx, realm);
  if (actor.isErr()) return err(actor.error);
  const done = await doReactivateUser(ctx, actor.value, { user_id: user.value.id });
  if (done.isErr()) return err(done.error);
  return findUserAsOperator(ctx, realm, email);
}

/** Replaces an account's API key (the old one stops working): a person's as their own request would, a bot's as an owner's. */
export async function regenerateApiKeyAsOperator(ctx: Ctx, realm: Realm, email: string): Promise<Result<User, ApiError>> {
  const user = await findUserAsOperator(ctx, realm, email);
  if (user.isErr()) return err(user.error);
  if (!user.value.isActive) return err(badRequest(`User '${user.value.deliveryEmail}' is deactivated`));
  let done: Result<{ api_key: string }, ApiError>;
  if (user.value.isBot) {
    const actor = await operatorActor(ctx, realm);
    if (actor.isErr()) return err(actor.error);
    done = await doRegenerateBotApiKey(ctx, actor.value, { bot_id: user.value.id });
  } else {
    done = await doRegenerateApiKey(ctx, { realm, user: user.value });
  }
  if (done.isErr()) return err(done.error);
  return findUserAsOperator(ctx, realm, email);
}

/** Where `sendMessageAsOperator` sends: a channel's topic (by channel name), or a direct message (by emails). */
export type OperatorMessageAddress = { channel: string; topic: string } | { emails: readonly string[] };

/** A message the operator sends: from the realm's Notification Bot, or from `senderEmail`. */
export interface OperatorMessage {
  to: OperatorMessageAddress;
  content: string;
  /** Absent: the Notification Bot, which (like the reference's internal sends) may post to any channel. */
  senderEmail?: string;
}

/** Sends a message as the operator; a user's message goes through POST /messages with every check it makes. */
export async function sendMessageAsOperator(ctx: Ctx, realm: Realm, message: OperatorMessage): Promise<Result<{ id: number }, ApiError>> {
  const { to, content, senderEmail } = message;
  if (senderEmail !== undefined) {
    const sender = await findUserAsOperator(ctx, realm, senderEmail);
    if (sender.isErr()) return err(sender.error);
    const sent =
      'channel' in to
        ? await doSendMessage(ctx, { realm, user: sender.value }, { type: 'stream', to: to.channel, topic: to.topic, content })
        : await doSendMessage(ctx, { realm, user: sender.value }, { type: 'direct', to: JSON.stringify(to.emails), content });
    return sent.map((s) => ({ id: s.id }));
  }
  const address = await ctx.storage.read(async (tx) => {
    if ('channel' in to) {
      const channel = await tx.streams.byName(realm.id, to.channel.trim());
      return channel ? ok({ channelId: channel.id, topic: to.topic }) : err(badRequest(`No channel named '${to.channel}'`));
    }
    const userIds: number[] = [];
    for (const email of to.emails) {
      const user = await tx.users.byDeliveryEmail(realm.id, email.trim());
      if (!user || !isRealmMember(user)) return err(badRequest(`No user with email '${email}' in realm '${realm.url}'`));
      userIds.push(user.id);
    }
    return ok({ userIds });
  });
  if (address.isErr()) return err(address.error);
  const sent = await sendNotificationBotMessageNow(ctx, realm, { to: address.value, content });
  return sent.map((s) => ({ id: s.id }));
}
