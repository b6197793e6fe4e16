/** alertWordsMatch: a user's alert words, case-insensitive, as words of their own. */
import { describe, expect, it } from 'vitest';
import { alertWordsMatch } from '../../packages/core/src/markdown/index.js';

describe('alertWordsMatch', () => {
  it('matches case-insensitively, as a whole word', () => {
    expect(alertWordsMatch('The Deploy failed', ['deploy'])).toBe(true);
    expect(alertWordsMatch('redeploy done', ['deploy'])).toBe(false);
    expect(alertWordsMatch('deployment done', ['deploy'])).toBe(false);
  });

  it('allows punctuation and Markdown around the word', () => {
    for (const content of ['deploy!', '(deploy)', '"deploy"', '**deploy**', '`deploy`', '> deploy', 'deploy, then', 'is it deploy?']) {
      expect(alertWordsMatch(content, ['deploy']), content).toBe(true);
    }
  });

  it('matches phrases and any of several words', () => {
    expect(alertWordsMatch('the release train left', ['nope', 'Release Train'])).toBe(true);
  });

  it('ignores fenced code and empty words', () => {
    expect(alertWordsMatch('```\ndeploy\n```', ['deploy'])).toBe(false);
    expect(alertWordsMatch('anything', ['', ])).toBe(false);
    expect(alertWordsMatch('anything', [])).toBe(false);
  });
});
