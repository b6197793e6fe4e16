import { expect, it } from 'vitest';
import { main } from '../../examples/embedded.js';

it('examples/embedded.ts creates a realm, promotes a user and lists users in-process', async () => {
  expect(await main()).toEqual([
    { user_id: 1, full_name: 'Olivia Owner', role: 100 },
    { user_id: 2, full_name: 'Bob', role: 300 },
  ]);
});
