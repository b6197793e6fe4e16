import { err, ok } from 'neverthrow';
import { checkMemberOrAdmin } from '../access/bots.js';
import { botProfiles, defaultChannelNames } from '../bots/profile.js';
import { avatarUrl } from '../format/avatar.js';
import { type Actor, userOperation } from '../operation.js';
import { GetBotsParams } from '../schemas/bots.js';

/**
 * GET /bots (the reference's get_bots_backend): the requester's own active bots, oldest first,
 * with their API keys. Administrators get only their own bots here too, as in the reference;
 * the realm's other bots reach them through register's realm_bots.
 */
export const getBots = userOperation(GetBotsParams, async (ctx, actor: Actor) => {
  const member = checkMemberOrAdmin(actor.user);
  if (member.isErr()) return err(member.error);
  const bots = await ctx.storage.read(async (tx) => {
    const owned = (await tx.users.botsOwnedBy(actor.realm.id, actor.user.id)).filter((b) => b.isActive && !b.isSystemBot);
    const profiles = await botProfiles(tx, actor.realm.id, owned.map((b) => b.id));
    const names = await defaultChannelNames(tx, actor.realm.id, profiles.values());
    const name = (id: number | null) => (id === null ? null : (names.get(id) ?? null));
    return owned.map((bot) => {
      const profile = profiles.get(bot.id)!;
      return {
        username: bot.deliveryEmail,
        full_name: bot.fullName,
        api_key: bot.apiKey,
        avatar_url: avatarUrl(actor.realm, bot, false),
        default_sending_stream: name(profile.defaultSendingStreamId),
        default_events_register_stream: name(profile.defaultEventsRegisterStreamId),
        default_all_public_streams: profile.defaultAllPublicStreams,
      };
    });
  });
  return ok({ bots });
});
