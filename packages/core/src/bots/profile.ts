/** Reading bots' profiles (storage/bot-types.ts) and what the API shows of them. */
import { type BotProfile, defaultBotProfile, type Tx } from '../storage/types.js';

/** The bot's stored profile, or the defaults for a bot that never stored one. */
export async function botProfile(tx: Tx, realmId: number, botId: number): Promise<BotProfile> {
  const [stored] = await tx.bots.profiles(realmId, [botId]);
  return stored ?? defaultBotProfile(botId);
}

/** Profiles of `botIds` by ID, the defaults filled in for bots that never stored one. */
export async function botProfiles(tx: Tx, realmId: number, botIds: readonly number[]): Promise<Map<number, BotProfile>> {
  const stored = new Map((await tx.bots.profiles(realmId, botIds)).map((p) => [p.botId, p]));
  return new Map(botIds.map((id) => [id, stored.get(id) ?? defaultBotProfile(id)]));
}

/**
 * The `services` list of a bot record: the reference's get_service_dicts_for_bot. An outgoing
 * webhook shows its URL, interface and token; an embedded bot its name and configuration.
 */
export function serviceDicts(botType: number | null, profile: BotProfile): Record<string, unknown>[] {
  if (!profile.service) return [];
  if (botType === 3) {
    return [{ base_url: profile.service.baseUrl, interface: profile.service.interface, token: profile.service.token }];
  }
  if (botType === 4) return [{ config_data: { ...profile.configData }, service_name: profile.service.name }];
  return [];
}

/** Channel names by ID for the default channels of `profiles` (null where a channel is gone). */
export async function defaultChannelNames(tx: Tx, realmId: number, profiles: Iterable<BotProfile>): Promise<Map<number, string>> {
  const ids = new Set<number>();
  for (const p of profiles) {
    if (p.defaultSendingStreamId !== null) ids.add(p.defaultSendingStreamId);
    if (p.defaultEventsRegisterStreamId !== null) ids.add(p.defaultEventsRegisterStreamId);
  }
  if (ids.size === 0) return new Map();
  return new Map((await tx.streams.list(realmId, [...ids])).map((s) => [s.id, s.name]));
}
