import { formatLinkifier } from '../format/linkifier.js';
import { defineSection } from './sections.js';

/**
 * The `realm_linkifiers` section (SHAPES.md 5.9): the list in processing order, but only for
 * clients with the `linkifier_url_template` capability; the others get [] (and no events).
 */
export const realmLinkifiersSection = defineSection({
  key: 'realm_linkifiers',
  async fetch(_ctx, tx, { realm }, options) {
    if (!options.capabilities.has('linkifier_url_template')) return { realm_linkifiers: [] };
    return { realm_linkifiers: (await tx.linkifiers.list(realm.id)).map(formatLinkifier) };
  },
});

/** The legacy `realm_filters` section: always empty (its event is no longer sent). */
export const realmFiltersSection = defineSection({
  key: 'realm_filters',
  async fetch() {
    return { realm_filters: [] };
  },
});
