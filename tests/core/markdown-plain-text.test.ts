/**
 * The plain-prose shortcut (markdown/plain-text.ts) must give exactly the full render's result:
 * for every content it accepts, the same HTML bytes and the same findings. Checked over every
 * golden case and over seeded random strings, both from its own alphabet (where most are
 * accepted, so the comparison is exercised) and with the characters just outside it mixed in
 * (where the boundaries are).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderMessage } from '../../packages/core/src/markdown/index.js';
import { renderPlainText } from '../../packages/core/src/markdown/plain-text.js';
import { renderMarkdown } from '../../packages/core/src/markdown/render.js';
import { testContext } from './markdown-context.js';

const golden = JSON.parse(readFileSync(new URL('../fixtures/markdown_test_cases.json', import.meta.url), 'utf8')) as {
  regular_tests: { input: string }[];
  linkify_tests: [string, string, string][];
};

// Both emoticon settings and image previews on: the full render does the most it can.
const contexts = [
  testContext({ translateEmoticons: true, imagePreviews: { thumbnailUrl: (url) => `/thumbnail?url=${encodeURIComponent(url)}` } }),
  testContext({ translateEmoticons: false }),
];

/** Renders `content` both ways; answers whether the shortcut took it. */
function checkSame(content: string): boolean {
  const plain = renderPlainText(content, undefined);
  if (plain === undefined) return false;
  for (const ctx of contexts) expect(plain, JSON.stringify(content)).toEqual(renderMarkdown(content, ctx));
  return true;
}

// A small seeded generator (mulberry32), so a failure names a reproducible input.
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Pieces rather than single characters, so that words, domains and numbered starts come up often.
const PLAIN_PIECES = ['hello', 'a', 'Z', 'ok', 'com', 'org', 'py', 'www', 'e', 'g', 'x', '1', '2', '10', '2017', '0', ' ', ' ', '  ', ',', '.', '.', '!', '?', "'", "don't"];
const NEAR_PIECES = [':', ';', ')', '(', '-', '*', '_', '#', '@', '<', '>', '&', '"', '\n', '\t', '/', '~', '`', '$', '[', ']', '|', '=', '+', '\\', 'é', '🙂', ':)', '<3', '**', 'http://', '@**all**'];

function fuzz(seed: number, count: number, pieces: readonly string[]): string[] {
  const next = random(seed);
  return Array.from({ length: count }, () => {
    let text = '';
    const length = 1 + Math.floor(next() * 12);
    for (let i = 0; i < length; i++) text += pieces[Math.floor(next() * pieces.length)];
    return text;
  });
}

describe('the plain-text shortcut renders as the full renderer does', () => {
  it('on every golden case it takes', () => {
    const inputs = [...golden.regular_tests.map((c) => c.input), ...golden.linkify_tests.map(([input]) => input)];
    const taken = inputs.filter(checkSame);
    // Some golden cases are plain prose (e.g. "Hello, world!"-like inputs): the comparison ran.
    expect(taken.length).toBeGreaterThan(0);
  });

  it('on random strings of its own alphabet', () => {
    const taken = fuzz(11, 5000, PLAIN_PIECES).filter(checkSame);
    expect(taken.length).toBeGreaterThan(1500);
  });

  it('on random strings with the characters around its alphabet', () => {
    const taken = fuzz(12, 5000, [...PLAIN_PIECES, ...NEAR_PIECES]).filter(checkSame);
    expect(taken.length).toBeGreaterThan(100);
  });

  it('leaves to the full renderer what only it renders right', () => {
    for (const content of ['example.com', 'see www.example.org now', '1. first', '2017. was a year', '    indented', 'a.b', 'e.g. this', '3.14', 'hi :)', 'x\ny', 'café', 'a & b', '@**all**']) {
      expect(renderPlainText(content, undefined), content).toBeUndefined();
    }
  });

  it('steps aside when the realm has a linkifier, which may match any word', () => {
    const linkifiers = [{ pattern: 'hel+o', urlTemplate: 'https://example.com/hello' }];
    expect(renderPlainText('hello', linkifiers)).toBeUndefined();
    expect(renderMessage('hello', testContext({ linkifiers })).html).toBe(renderMarkdown('hello', testContext({ linkifiers })).html);
  });

  it('takes the messages it is for', () => {
    for (const content of ['hello', 'ok, thanks!', "Don't worry. It's fine", 'Meeting at 10 today?', '42']) {
      expect(checkSame(content), content).toBe(true);
      expect(renderMessage(content, testContext()).html).toBe(`<p>${content}</p>`);
    }
  });
});
