/**
 * The reference's golden Markdown cases (tests/fixtures/markdown_test_cases.json, a copy of
 * shared/reference/'s; see tests/fixtures/README.md), every one.
 * A case passes when our HTML equals the reference server's output or, where the file has one,
 * its web client's (`marked_expected_output`, which is the reference's rendering without the
 * features only its server has, such as Pygments highlighting spans). Cases that need something
 * we deliberately lack are listed in EXPECTED_TO_DIFFER with the reason, and are checked to
 * still differ, so a fix shows up as a failure to remove the entry.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderMessage, type RenderContext } from '../../packages/core/src/markdown/index.js';

interface RegularCase {
  name: string;
  input: string;
  expected_output: string;
  marked_expected_output?: string;
  translate_emoticons?: boolean;
  backend_only_rendering?: boolean;
}

const golden = JSON.parse(
  readFileSync(new URL('../fixtures/markdown_test_cases.json', import.meta.url), 'utf8'),
) as { regular_tests: RegularCase[]; linkify_tests: [string, string, string][] };

/**
 * Cases we do not match, by name, with the reason. None at present: KaTeX math is rendered (on
 * KaTeX 0.16.31, whose output the cases were made with), code blocks match the web client's
 * rendering without Pygments spans, and image previews run with the test server's thumbnail URLs.
 */
const EXPECTED_TO_DIFFER: Record<string, string> = {};

// The emoji these cases use, by the reference's names (its table has 1f642 as "smile").
const EMOJI: Record<string, string> = {
  smile: '1f642', poop: '1f4a9', frown: '1f641', heart: '2764', airplane: '2708',
  woman_shrugging: '1f937-200d-2640', eye_in_speech_bubble: '1f441-200d-1f5e8', hash: '0023-20e3',
  lemon: '1f34b', cat: '1f408', dog: '1f415', rabbit: '1f407', holiday_tree: '1f384', anchor: '2693',
  division: '2797', robot: '1f916', up: '2b06', alien: '1f47d', avocado: '1f951', kiwi: '1f95d',
  selfie: '1f933', gear: '2699', comet: '2604', gold: '1f947', smiley: '1f603',
};
const NAME_BY_CODE = new Map(Object.entries(EMOJI).map(([name, code]) => [code, name]));

/** The reference test server's realm, as its golden cases were rendered in. */
function goldenContext(translateEmoticons = false): RenderContext {
  return {
    realmUrl: 'http://zulip.testserver',
    emojiByName: (name) => {
      if (name === 'zulip') return { kind: 'image', url: '/static/generated/emoji/images/emoji/unicode/zulip.png' };
      const code = EMOJI[name];
      return code ? { kind: 'unicode', code } : null;
    },
    emojiNameByCode: (code) => NAME_BY_CODE.get(code) ?? null,
    translateEmoticons,
    imagePreviews: {
      thumbnailUrl: (url, size) => `/thumbnail?url=${encodeURIComponent(url)}&size=${size}`,
    },
  };
}

describe('golden regular cases', () => {
  for (const c of golden.regular_tests) {
    const reason = EXPECTED_TO_DIFFER[c.name];
    const accepted = [c.expected_output, c.marked_expected_output].filter((x): x is string => x !== undefined);
    if (reason) {
      it(`${c.name} differs as expected: ${reason}`, () => {
        const { html } = renderMessage(c.input, goldenContext(c.translate_emoticons));
        expect(accepted).not.toContain(html);
      });
      continue;
    }
    it(c.name, () => {
      const { html } = renderMessage(c.input, goldenContext(c.translate_emoticons));
      if (html !== c.expected_output) expect(html).toBe(c.marked_expected_output ?? c.expected_output);
    });
  }
});

describe('golden linkify cases', () => {
  for (const [input, reference, url] of golden.linkify_tests) {
    it(input, () => {
      // The reference's own helper: `%s` in the reference stands for the expected link.
      const href = url.startsWith('http') ? url : url.includes('@') ? `mailto:${url}` : `http://${url}`;
      const expected = reference.includes('%s') ? reference.replace('%s', `<a href="${href}">${url}</a>`) : reference;
      expect(renderMessage(input, goldenContext()).html).toBe(expected);
    });
  }
});
