import type { StoredLinkifier } from '../storage/types.js';

/** A linkifier as the API shows it (SHAPES.md 5.9). */
export function formatLinkifier(linkifier: StoredLinkifier): Record<string, unknown> {
  return {
    id: linkifier.id,
    pattern: linkifier.pattern,
    url_template: linkifier.urlTemplate,
    example_input: linkifier.exampleInput,
    reverse_template: linkifier.reverseTemplate,
    alternative_url_templates: linkifier.alternativeUrlTemplates,
  };
}
