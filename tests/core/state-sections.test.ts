/** The register snapshot's section table (state/all.ts): each name selects exactly one section. */
import { STATE_SECTIONS } from '@teamchat/core/internal';
import { expect, it } from 'vitest';

it('names every section once: no key or alias is shared by two sections', () => {
  const names = STATE_SECTIONS.flatMap((section) => [section.key, ...(section.aliases ?? [])]);
  expect(names.length).toBeGreaterThan(30);
  expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
});
