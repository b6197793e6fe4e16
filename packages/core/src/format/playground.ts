import type { StoredPlayground } from '../storage/types.js';

/** A code playground as the API shows it (SHAPES.md 2.4 `realm_playgrounds`). */
export const formatPlayground = (playground: StoredPlayground) => ({
  id: playground.id,
  name: playground.name,
  pygments_language: playground.pygmentsLanguage,
  url_template: playground.urlTemplate,
});
