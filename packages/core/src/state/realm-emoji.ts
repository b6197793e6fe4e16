import { realmEmojiDict } from '../format/realm-emoji.js';
import { defineSection } from './sections.js';

/** The `realm_emoji` section (SHAPES.md 2.5, 5.14): every custom emoji keyed by ID string. */
export const realmEmojiSection = defineSection({
  key: 'realm_emoji',
  async fetch(_ctx, tx, { realm }) {
    return { realm_emoji: realmEmojiDict(await tx.realmEmoji.list(realm.id)) };
  },
});
