/** Events about the realm's own settings and lists, sent to its active users. */
import type { formatLinkifier } from '../../format/linkifier.js';
import type { formatPlayground } from '../../format/playground.js';
import type { formatRealmEmoji, realmEmojiDict } from '../../format/realm-emoji.js';

export interface RealmUpdateDictEvent {
  type: 'realm';
  op: 'update_dict';
  property: 'default';
  data: Record<string, unknown>;
}

export interface RealmUserSettingsDefaultsEvent {
  type: 'realm_user_settings_defaults';
  op: 'update';
  property: string;
  value: unknown;
}

export type RealmDomainsEvent =
  | { type: 'realm_domains'; op: 'add' | 'change'; realm_domain: { domain: string; allow_subdomains: boolean } }
  | { type: 'realm_domains'; op: 'remove'; domain: string };

export type RealmEmojiEvent =
  /** Every emoji of the realm (clients without individual_emoji_changes). */
  | { type: 'realm_emoji'; op: 'update'; realm_emoji: ReturnType<typeof realmEmojiDict> }
  | { type: 'realm_emoji'; op: 'add'; emoji: ReturnType<typeof formatRealmEmoji> }
  | { type: 'realm_emoji'; op: 'update_one'; emoji_id: string; data: { deactivated: boolean } };

export interface RealmLinkifiersEvent {
  type: 'realm_linkifiers';
  realm_linkifiers: Array<ReturnType<typeof formatLinkifier>>;
}

export interface RealmPlaygroundsEvent {
  type: 'realm_playgrounds';
  realm_playgrounds: Array<ReturnType<typeof formatPlayground>>;
}

/** Sent by the queue itself to keep a waiting long-poll alive; never published. */
export interface HeartbeatEvent {
  type: 'heartbeat';
}
