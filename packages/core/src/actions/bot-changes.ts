/**
 * PATCH /bots/{bot_id} (the reference's patch_bot_backend): a bot's name, email, role, owner,
 * default channels, outgoing webhook service and config. Unlike the reference, which applies
 * each parameter as it goes, every change here commits together or not at all.
 */
import { err, ok, type Result } from 'neverthrow';
import { accessBotById, checkMemberOrAdmin, invalidInterfaceType, SERVICE_INTERFACES, usernameInUse } from '../access/bots.js';
import { accessStreamByName } from '../access/channels.js';
import { isAdmin, isOwner } from '../access/roles.js';
import { checkFullName } from '../access/user-input.js';
import { botEmail, checkBotNameAvailable, mergeConfigData } from '../bots/names.js';
import { botProfile, defaultChannelNames, serviceDicts } from '../bots/profile.js';
import type { Ctx } from '../context.js';
import { type ApiError, badRequest, mustBeAdmin, mustBeOwner } from '../errors.js';
import { announceBotTo, announceBotUpdate, managesBot } from '../events/realm-bot.js';
import type { BotRecord } from '../events/union/users.js';
import { avatarUrl } from '../format/avatar.js';
import { apiEmail } from '../format/user.js';
import { type Actor, userOperation } from '../operation.js';
import { UpdateBotParams } from '../schemas/bots.js';
import { type BotProfile, type Realm, ROLE, type Tx, type User } from '../storage/types.js';
import { transactionAs } from '../transaction.js';
import { applyUserChange } from '../users/changes.js';

type UpdateBotInput = (typeof UpdateBotParams)['TYPE'];

/** PATCH /bots/{bot_id}'s answer: the bot as it now is. */
export interface UpdatedBot {
  full_name: string;
  avatar_url: string | null;
  service_interface?: number;
  service_payload_url: string | null;
  config_data: Record<string, string> | null;
  /** Channel names; null when unset. */
  default_sending_stream: string | null;
  default_events_register_stream: string | null;
  default_all_public_streams: boolean;
  /** The owner's API email, when the bot has an owner. */
  bot_owner?: string;
}

/** Applies the given changes in the reference's order; answers the bot as it now is. */
export const doUpdateBot = userOperation(UpdateBotParams, async (ctx, requester: Actor, params) => {
  const member = checkMemberOrAdmin(requester.user);
  if (member.isErr()) return err(member.error);
  return transactionAs(ctx, requester, async (tx, actor): Promise<Result<UpdatedBot, ApiError>> => {
    const access = await accessBotById(tx, actor, params.bot_id);
    if (access.isErr()) return err(access.error);
    const changed = await changeBotUser(ctx, tx, actor, access.value, params);
    if (changed.isErr()) return err(changed.error);
    const bot = changed.value;
    const profile = await changeBotProfile(ctx, tx, actor, bot, params);
    if (profile.isErr()) return err(profile.error);

    const names = await defaultChannelNames(tx, actor.realm.id, [profile.value]);
    const name = (id: number | null) => (id === null ? null : (names.get(id) ?? null));
    const owner = bot.botOwnerId === null ? undefined : await tx.users.byId(actor.realm.id, bot.botOwnerId);
    return ok({
      full_name: bot.fullName,
      avatar_url: avatarUrl(actor.realm, bot, false),
      service_interface: params.service_interface,
      service_payload_url: params.service_payload_url ?? null,
      config_data: params.config_data ?? null,
      default_sending_stream: name(profile.value.defaultSendingStreamId),
      default_events_register_stream: name(profile.value.defaultEventsRegisterStreamId),
      default_all_public_streams: profile.value.defaultAllPublicStreams,
      ...(owner && { bot_owner: apiEmail(actor.realm, owner) }),
    });
  });
});

/** The changes to the bot's user row: name, email (FL 447), role and owner, each announced. */
async function changeBotUser(ctx: Ctx, tx: Tx, actor: Actor, target: User, params: UpdateBotInput): Promise<Result<User, ApiError>> {
  const { realm, user } = actor;
  let bot = target;
  if (params.full_name !== undefined) {
    const fullName = checkFullName(params.full_name);
    if (fullName.isErr()) return err(fullName.error);
    if (fullName.value !== bot.fullName) {
      const available = await checkBotNameAvailable(tx, realm.id, fullName.value, { activation: false, exceptId: bot.id });
      if (available.isErr()) return err(available.error);
      bot = await applyUserChange(ctx, tx, realm, bot, { fullName: fullName.value });
    }
  }
  if (params.short_name !== undefined) {
    const names = botEmail(realm, params.short_name);
    if (names.isErr()) return err(names.error);
    if (names.value.email.toLowerCase() !== bot.deliveryEmail.toLowerCase()) {
      if (await tx.users.byDeliveryEmail(realm.id, names.value.email)) return err(usernameInUse());
    }
    bot = await applyUserChange(ctx, tx, realm, bot, { deliveryEmail: names.value.email });
  }
  if (params.role !== undefined && params.role !== bot.role) {
    if ((params.role === ROLE.owner || isOwner(bot)) && !isOwner(user)) return err(mustBeOwner());
    if (!isAdmin(user)) return err(mustBeAdmin());
    bot = await applyUserChange(ctx, tx, realm, bot, { role: params.role as User['role'] });
  }
  if (params.bot_owner_id !== undefined) {
    const owner = await tx.users.byId(realm.id, params.bot_owner_id);
    if (!owner) return err(badRequest('Failed to change owner, no such user'));
    if (!owner.isActive) return err(badRequest('Failed to change owner, user is deactivated'));
    if (owner.isBot) return err(badRequest("Failed to change owner, bots can't own other bots"));
    if (owner.id !== bot.botOwnerId) bot = await changeBotOwner(ctx, tx, realm, bot, owner);
  }
  return ok(bot);
}

/**
 * do_change_bot_owner: everyone learns the new bot_owner_id (realm_user); the old owner, unless
 * an administrator, loses the bot from its realm_bots and the new one gains it.
 */
async function changeBotOwner(ctx: Ctx, tx: Tx, realm: Realm, bot: User, owner: User): Promise<User> {
  const previous = bot.botOwnerId === null ? undefined : await tx.users.byId(realm.id, bot.botOwnerId);
  const after = await applyUserChange(ctx, tx, realm, bot, { botOwnerId: owner.id });
  if (previous?.isActive && !managesBot(previous, after)) await announceBotTo(ctx, tx, realm, after, 'delete', [previous.id]);
  if (!managesBot(owner, bot)) await announceBotTo(ctx, tx, realm, after, 'add', [owner.id]);
  return after;
}

/** The changes to the bot's profile (default channels, service, config), each a realm_bot update. */
async function changeBotProfile(ctx: Ctx, tx: Tx, actor: Actor, bot: User, params: UpdateBotInput): Promise<Result<BotProfile, ApiError>> {
  const realm = actor.realm;
  let profile = await botProfile(tx, realm.id, bot.id);
  const save = async (patch: Partial<BotProfile>, fields: (p: BotProfile) => Partial<Omit<BotRecord, 'user_id'>>) => {
    profile = { ...profile, ...patch };
    await tx.bots.put(realm.id, profile);
    await announceBotUpdate(ctx, tx, realm, bot, fields(profile));
  };
  for (const key of ['default_sending_stream', 'default_events_register_stream'] as const) {
    const name = params[key];
    if (name === undefined) continue;
    let stream = null;
    if (name !== '') {
      const access = await accessStreamByName(tx, actor.user, name);
      if (access.isErr()) return err(access.error);
      stream = access.value.stream;
    }
    const patch = key === 'default_sending_stream' ? { defaultSendingStreamId: stream?.id ?? null } : { defaultEventsRegisterStreamId: stream?.id ?? null };
    await save(patch, () => ({ [key]: stream?.name ?? null }));
  }
  if (params.default_all_public_streams !== undefined) {
    await save({ defaultAllPublicStreams: params.default_all_public_streams }, (p) => ({ default_all_public_streams: p.defaultAllPublicStreams }));
  }
  if (params.service_payload_url !== undefined) {
    if (!SERVICE_INTERFACES.includes(params.service_interface)) return err(invalidInterfaceType());
    if (!profile.service) return err(badRequest('This bot has no outgoing webhook service'));
    const service = { ...profile.service, baseUrl: params.service_payload_url, interface: params.service_interface };
    await save({ service }, (p) => ({ services: serviceDicts(bot.botType, p) }));
  }
  if (params.config_data !== undefined) {
    const configData = mergeConfigData(profile.configData, params.config_data);
    if (configData.isErr()) return err(configData.error);
    await save({ configData: configData.value }, (p) => ({ services: serviceDicts(bot.botType, p) }));
  }
  return ok(profile);
}
