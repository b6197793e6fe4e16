/** Events about the realm's own settings and lists, sent to its active users. */
import type { formatLinkifier } from '../../format/linkifier.js';
import type { formatPlayground } from '../../format/playground.js';
import type { formatRealmEmoji, realmEmojiDict } from '../../format/realm-emoji.js';

/** Realm settings changed together; `data` holds each changed setting and its new value. */
export interface RealmUpdateDictEvent {
  type: 'realm';
  op: 'update_dict';
  property: 'default';
  data: Record<string, unknown>;
}

/** One of the realm's defaults for new users' settings changed. */
export interface RealmUserSettingsDefaultsEvent {
  type: 'realm_user_settings_defaults';
  op: 'update';
  property: string;
  value: unknown;
}

/** The realm's allowed email domains: one added, changed or removed. */
export type RealmDomainsEvent =
  | { type: 'realm_domains'; op: 'add' | 'change'; realm_domain: { domain: string; allow_subdomains: boolean } }
  | { type: 'realm_domains'; op: 'remove'; domain: string };

/** The realm's custom emoji changed: the whole set, one added, or one (de)activated. */
export type RealmEmojiEvent =
  /** Every emoji of the realm (clients without individual_emoji_changes). */
  | { type: 'realm_emoji'; op: 'update'; realm_emoji: ReturnType<typeof realmEmojiDict> }
  | { type: 'realm_emoji'; op: 'add'; emoji: ReturnType<typeof formatRealmEmoji> }
  | { type: 'realm_emoji'; op: 'update_one'; emoji_id: string; data: { deactivated: boolean } };

/** Every linkifier of the realm after a change, in order. */
export interface RealmLinkifiersEvent {
  type: 'realm_linkifiers';
  realm_linkifiers: Array<ReturnType<typeof formatLinkifier>>;
}

/** Every code playground of the realm after a change. */
export interface RealmPlaygroundsEvent {
  type: 'realm_playgrounds';
  realm_playgrounds: Array<ReturnType<typeof formatPlayground>>;
}

/** Sent by the queue itself to keep a waiting long-poll alive; never published. */
export interface HeartbeatEvent {
  type: 'heartbeat';
}
