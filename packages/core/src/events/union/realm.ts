/** Events about the realm's own settings and lists, sent to its active users. */

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
  | { type: 'realm_emoji'; op: 'update'; realm_emoji: Record<string, Record<string, unknown>> }
  | { type: 'realm_emoji'; op: 'add'; emoji: Record<string, unknown> }
  | { type: 'realm_emoji'; op: 'update_one'; emoji_id: string; data: { deactivated: boolean } };

export interface RealmLinkifiersEvent {
  type: 'realm_linkifiers';
  realm_linkifiers: Array<Record<string, unknown>>;
}

export interface RealmPlaygroundsEvent {
  type: 'realm_playgrounds';
  realm_playgrounds: Array<Record<string, unknown>>;
}

/** Sent by the queue itself to keep a waiting long-poll alive; never published. */
export interface HeartbeatEvent {
  type: 'heartbeat';
}
