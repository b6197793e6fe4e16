import { formatPlayground } from '../format/playground.js';
import { defineSection } from './sections.js';

/** The `realm_playgrounds` section (SHAPES.md 2.4): the realm's code playgrounds, for everyone who may read the realm. */
export const realmPlaygroundsSection = defineSection({
  key: 'realm_playgrounds',
  async fetch(_ctx, tx, { realm }) {
    return { realm_playgrounds: (await tx.playgrounds.list(realm.id)).map(formatPlayground) };
  },
});
