/**
 * POST /bots: creating a bot (the reference's add_bot_backend). The bot is a user of the realm
 * owned by its creator; its settings beyond the user row live in the bot store.
 */
import { err, ok, type Result } from 'neverthrow';
import { allowedBotTypes, BOT_TYPE, checkCanCreateBot, checkMemberOrAdmin, invalidInterfaceType, SERVICE_INTERFACES, usernameInUse } from '../access/bots.js';
import { accessStreamByName } from '../access/channels.js';
import { checkFullName } from '../access/user-input.js';
import { generateApiKey } from '../auth/api-key.js';
import { botEmail, checkBotNameAvailable, mergeConfigData } from '../bots/names.js';
import type { Ctx } from '../context.js';
import { type ApiError, badRequest } from '../errors.js';
import { avatarUrl } from '../format/avatar.js';
import { type Actor, userOperation } from '../operation.js';
import { CreateBotParams } from '../schemas/bots.js';
import type { BotProfile, Stream, Tx, User } from '../storage/types.js';
import { transactionAs } from '../transaction.js';
import { insertUser } from '../users/records.js';
import { ROLE } from '../access/roles.js';

/** What POST /bots answers (add_bot_backend's json_result). */
export interface CreatedBot {
  user_id: number;
  api_key: string;
  avatar_url: string | null;
  default_sending_stream: string | null;
  default_events_register_stream: string | null;
  default_all_public_streams: boolean;
}

type CreateBotInput = (typeof CreateBotParams)['TYPE'];

/**
 * Creates a bot owned by the requester, with the reference's checks in its order: names, type
 * (embedded bots are refused, see allowedBotTypes), permission, interface, default channels.
 * An avatar file sent with the request is not stored here: uploads of avatars belong to the
 * avatar endpoints, and the bot starts with the realm's default avatar.
 */
export const doCreateBot = userOperation(CreateBotParams, async (ctx, requester: Actor, params) => {
  const member = checkMemberOrAdmin(requester.user);
  if (member.isErr()) return err(member.error);
  return transactionAs(ctx, requester, async (tx, actor): Promise<Result<CreatedBot, ApiError>> => {
    const { realm, user } = actor;
    const names = botEmail(realm, params.short_name);
    if (names.isErr()) return err(names.error);
    const fullName = checkFullName(params.full_name);
    if (fullName.isErr()) return err(fullName.error);
    if (params.bot_type === BOT_TYPE.embedded) return err(badRequest('Embedded bots are not enabled.'));
    if (await tx.users.byDeliveryEmail(realm.id, names.value.email)) return err(usernameInUse());
    const available = await checkBotNameAvailable(tx, realm.id, fullName.value, { activation: false });
    if (available.isErr()) return err(available.error);
    const allowed = checkCanCreateBot(user, realm, params.bot_type);
    if (allowed.isErr()) return err(allowed.error);
    if (!allowedBotTypes(user, realm).includes(params.bot_type)) return err(badRequest('Invalid bot type'));
    if (!SERVICE_INTERFACES.includes(params.interface_type)) return err(invalidInterfaceType());

    const sending = await defaultChannel(tx, user, params.default_sending_stream);
    if (sending.isErr()) return err(sending.error);
    const register = await defaultChannel(tx, user, params.default_events_register_stream);
    if (register.isErr()) return err(register.error);
    const profile = newBotProfile(ctx, params, names.value.shortName, sending.value, register.value);
    if (profile.isErr()) return err(profile.error);

    const created = await insertUser(ctx, tx, realm, {
      email: names.value.email,
      fullName: fullName.value,
      passwordHash: null,
      role: ROLE.member,
      isBot: true,
      botType: params.bot_type,
      botOwnerId: user.id,
      botProfile: profile.value,
    });
    if (created.isErr()) return err(created.error);
    const bot = created.value;
    return ok({
      user_id: bot.id,
      api_key: bot.apiKey,
      avatar_url: avatarUrl(realm, bot, false),
      default_sending_stream: sending.value?.name ?? null,
      default_events_register_stream: register.value?.name ?? null,
      default_all_public_streams: profile.value.defaultAllPublicStreams,
    });
  });
});

/** A default channel named by the requester: one they may read (access_stream_by_name), or none. */
async function defaultChannel(tx: Tx, user: User, name: string | undefined): Promise<Result<Stream | null, ApiError>> {
  if (name === undefined) return ok(null);
  const access = await accessStreamByName(tx, user, name);
  return access.isErr() ? err(access.error) : ok(access.value.stream);
}

/**
 * The new bot's profile. Outgoing webhooks get their service (named by service_name, else the
 * short name) with a fresh token; incoming webhooks keep config_data. An incoming webhook's
 * service_name names one of the reference's integrations, none of which this server has.
 */
function newBotProfile(
  ctx: Ctx,
  params: CreateBotInput,
  shortName: string,
  sending: Stream | null,
  register: Stream | null,
): Result<Omit<BotProfile, 'botId'>, ApiError> {
  const webhook = params.bot_type === BOT_TYPE.incomingWebhook;
  if (webhook && params.service_name) return err(badRequest(`Invalid integration '${params.service_name}'.`));
  const configData = webhook ? mergeConfigData({}, params.config_data) : ok({});
  if (configData.isErr()) return err(configData.error);
  const service =
    params.bot_type === BOT_TYPE.outgoingWebhook
      ? { name: params.service_name || shortName, baseUrl: params.payload_url ?? '', interface: params.interface_type, token: generateApiKey(ctx) }
      : null;
  return ok({
    defaultSendingStreamId: sending?.id ?? null,
    defaultEventsRegisterStreamId: register?.id ?? null,
    defaultAllPublicStreams: params.default_all_public_streams ?? false,
    service,
    configData: configData.value,
  });
}
