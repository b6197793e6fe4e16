/**
 * The expectations table covers the route table exactly: a new route fails here until its row
 * is added to tests/matrix/expectations.ts, and a row must agree with its operation's auth mode.
 */
import { describe, expect, it } from 'vitest';
import { EXPECTATIONS } from './expectations.js';
import { ENTRIES } from './routes.js';

describe('permission matrix coverage', () => {
  it('every route of ROUTES has a row in tests/matrix/expectations.ts', () => {
    const missing = ENTRIES.filter((e) => !e.rule).map((e) => `${e.key}: add its row to tests/matrix/expectations.ts`);
    expect(missing).toEqual([]);
  });

  it('every row names a route that exists', () => {
    const keys = new Set(ENTRIES.map((e) => e.key));
    expect(Object.keys(EXPECTATIONS).filter((k) => !keys.has(k))).toEqual([]);
  });

  it('rows agree with the auth mode of their operation', () => {
    const wrong = ENTRIES.filter(({ auth, rule }) => {
      if (!rule) return false;
      if (auth === 'none') return rule.allow !== 'anyone';
      if (auth === 'required') return rule.allow === 'anyone' || rule.allow === 'spectator';
      return rule.allow === 'anyone';
    }).map((e) => `${e.key} (${e.auth}): allow ${JSON.stringify(e.rule?.allow)}`);
    expect(wrong).toEqual([]);
  });

});
