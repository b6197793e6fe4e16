/**
 * Reaction types and the built-in emoji that are not unicode (API.md 2.11). The reference calls
 * the last type `zulip_extra_emoji`; this API calls it `service_extra_emoji`.
 */

export const REACTION_TYPES = ['unicode_emoji', 'realm_emoji', 'service_extra_emoji'] as const;

/** `unicode_emoji` (code: hex code points), `realm_emoji` (code: custom emoji ID), `service_extra_emoji` (code: its name). */
export type ReactionType = (typeof REACTION_TYPES)[number];

/** The built-in extra emoji, name → code. There is one, and its code is its name. */
export const SERVICE_EXTRA_EMOJI: Readonly<Record<string, string>> = { zulip: 'zulip' };

/** An emoji as a reaction names it. */
export interface EmojiRef {
  emoji_name: string;
  emoji_code: string;
  reaction_type: ReactionType;
}

/** What the emoji checks need to know about one custom (realm) emoji. */
export interface RealmEmojiRef {
  /** The emoji's ID as a string: its `emoji_code`. */
  id: string;
  name: string;
  deactivated: boolean;
}

/**
 * The realm's custom emoji, as the emoji checks look them up. Synchronous on purpose: a caller
 * loads the realm's custom emoji once (there are few) and the checks, like Markdown rendering,
 * then run without I/O. `realmEmojiLookup` builds one from a list.
 */
export interface RealmEmojiLookup {
  /** The custom emoji with this ID, deactivated or not. */
  byId(id: string): RealmEmojiRef | undefined;
  /** The active custom emoji with this name (a deactivated one may share the name). */
  activeByName(name: string): RealmEmojiRef | undefined;
}

/** A lookup over a realm's custom emoji, given all of them (deactivated ones included). */
export function realmEmojiLookup(emoji: readonly RealmEmojiRef[]): RealmEmojiLookup {
  const byId = new Map(emoji.map((e) => [e.id, e]));
  const activeByName = new Map(emoji.filter((e) => !e.deactivated).map((e) => [e.name, e]));
  return { byId: (id) => byId.get(id), activeByName: (name) => activeByName.get(name) };
}
