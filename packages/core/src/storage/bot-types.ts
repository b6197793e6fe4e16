/**
 * The bot part of the storage contract: what a bot has beyond its user row (the reference's
 * UserProfile default-stream fields, its one Service row and its BotConfigData). See types.ts
 * for the isolation rules every store follows.
 */

/** An outgoing webhook's (or embedded bot's) service: where and how messages are posted. */
export interface BotService {
  name: string;
  /** The payload URL; "" when none was given. */
  baseUrl: string;
  /** 1 generic, 2 Slack-compatible. */
  interface: number;
  /** Sent with every request so that the receiver can tell the request came from us. */
  token: string;
}

/** A bot's settings; a bot with no stored row has `defaultBotProfile`'s values. */
export interface BotProfile {
  botId: number;
  defaultSendingStreamId: number | null;
  defaultEventsRegisterStreamId: number | null;
  defaultAllPublicStreams: boolean;
  /** The bot's service (outgoing webhook and embedded bots); null for other bots. */
  service: BotService | null;
  /** Key/value configuration (incoming webhook and embedded bots); `{}` when none. */
  configData: Readonly<Record<string, string>>;
}

/** The profile of a bot that never stored one (bots made by the operator or before this table). */
export const defaultBotProfile = (botId: number): BotProfile => ({
  botId,
  defaultSendingStreamId: null,
  defaultEventsRegisterStreamId: null,
  defaultAllPublicStreams: false,
  service: null,
  configData: {},
});

/** Bots' profiles. Humans and other realms' users never have one. */
export interface BotStore {
  /**
   * The stored profiles of the realm's bots among `botIds`, ordered by bot ID. Bots with no
   * stored profile, users of other realms and unknown IDs are left out.
   */
  profiles(realmId: number, botIds: readonly number[]): Promise<BotProfile[]>;
  /**
   * Stores `profile` as the bot's whole profile, replacing any earlier one (a bot has exactly
   * one). Writes nothing and returns false when `profile.botId` is not a bot of the realm.
   */
  put(realmId: number, profile: BotProfile): Promise<boolean>;
}
