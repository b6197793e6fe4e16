import type { StoredLinkifier } from '../storage/types.js';

/** A linkifier (SHAPES.md 5.9): a pattern whose matches become links. */
export interface ApiLinkifier {
  id: number;
  pattern: string;
  /** An RFC 6570 template filled with the pattern's named groups. */
  url_template: string;
  example_input: string | null;
  reverse_template: string | null;
  alternative_url_templates: string[];
}

/** A linkifier as the API shows it (SHAPES.md 5.9). */
export function formatLinkifier(linkifier: StoredLinkifier): ApiLinkifier {
  return {
    id: linkifier.id,
    pattern: linkifier.pattern,
    url_template: linkifier.urlTemplate,
    example_input: linkifier.exampleInput,
    reverse_template: linkifier.reverseTemplate,
    alternative_url_templates: linkifier.alternativeUrlTemplates,
  };
}
