import type { StoredPlayground } from '../storage/types.js';

/** A code playground: where code blocks of a language can be opened (SHAPES.md 2.4 `realm_playgrounds`). */
export interface ApiPlayground {
  id: number;
  name: string;
  pygments_language: string;
  /** An RFC 6570 template with `{code}`. */
  url_template: string;
}

/** A code playground as the API shows it (SHAPES.md 2.4 `realm_playgrounds`). */
export const formatPlayground = (playground: StoredPlayground): ApiPlayground => ({
  id: playground.id,
  name: playground.name,
  pygments_language: playground.pygmentsLanguage,
  url_template: playground.urlTemplate,
});
