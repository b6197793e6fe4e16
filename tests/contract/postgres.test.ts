/** The storage contract against the PostgreSQL driver, when TEAMCHAT_TEST_DATABASE_URL names a database. */
import { describe, it } from 'vitest';
import { postgresTestStorage, TEST_DATABASE_URL } from '../helpers/storage.js';
import { testStorageDriver } from './storage.case.js';

if (TEST_DATABASE_URL) {
  testStorageDriver('postgres', () => postgresTestStorage());
  testStorageDriver('postgres, nested-call check off', () => postgresTestStorage({ detectNestedCalls: false }), {
    reason: 'detectNestedCalls: false turns that check off on purpose; the server never nests storage calls',
    tests: ['an operation started inside a callback rejects instead of waiting forever'],
  });
} else {
  describe.skip('storage contract: postgres (TEAMCHAT_TEST_DATABASE_URL is not set)', () => it('runs', () => undefined));
}
