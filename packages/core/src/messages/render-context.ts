import { unicodeEmojiByCode, unicodeEmojiByName } from '../emoji/index.js';
import type { Linkifier, RenderContext } from '../markdown/index.js';
import { realmEmojiUrl } from '../format/realm-emoji.js';
import type { Realm, RealmEmoji, Stream, StoredUserGroup, User } from '../storage/types.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from './normalize.js';

/**
 * The renderer's view of a realm for one sender: who can be mentioned, which channels can be
 * linked (those the sender may see), and the emoji. Built from one read of the realm.
 * `realmEmoji` are the realm's custom emoji (deactivated ones are skipped here); `linkifiers`
 * the realm's linkifiers in processing order; `userGroups` the realm's groups (deactivated ones
 * cannot be mentioned).
 */
export function renderContextFor(
  realm: Realm,
  users: readonly User[],
  channels: readonly Stream[],
  now: Date,
  realmEmoji: readonly RealmEmoji[] = [],
  linkifiers: readonly Linkifier[] = [],
  userGroups: readonly StoredUserGroup[] = [],
): RenderContext {
  const byName = new Map<string, User>();
  for (const user of users) if (!byName.has(user.fullName.toLowerCase())) byName.set(user.fullName.toLowerCase(), user);
  const byId = new Map(users.map((u) => [u.id, u]));
  const groupsByName = new Map(userGroups.filter((g) => !g.deactivated).map((g) => [g.name.toLowerCase(), g]));
  const channelsByName = new Map(channels.map((s) => [s.name, s]));
  const customEmoji = new Map(realmEmoji.filter((e) => !e.deactivated).map((e) => [e.name, e]));
  const mentionable = (user: User | undefined) => (user ? { id: user.id, fullName: user.fullName, isActive: user.isActive } : null);
  return {
    realmUrl: realm.url,
    userByName: (name) => mentionable(byName.get(name.toLowerCase())),
    userById: (id) => mentionable(byId.get(id)),
    groupByName: (name) => {
      const group = groupsByName.get(name.toLowerCase());
      return group ? { id: group.id, name: group.name } : null;
    },
    channelByName: (name) => {
      const stream = channelsByName.get(name);
      return stream ? { id: stream.id, name: stream.name } : null;
    },
    linkifiers,
    // The reference's order: an active custom emoji shadows the extra and unicode emoji of its name.
    emojiByName: (name) => {
      const custom = customEmoji.get(name);
      if (custom) return { kind: 'image', url: realmEmojiUrl(custom) };
      if (name === 'zulip') return { kind: 'image', url: '/static/generated/emoji/images/emoji/unicode/zulip.png' };
      const code = unicodeEmojiByName(name);
      return code ? { kind: 'unicode', code } : null;
    },
    emojiNameByCode: (code) => unicodeEmojiByCode(code) ?? null,
    emptyTopicDisplayName: EMPTY_TOPIC_DISPLAY_NAME,
    now,
  };
}
