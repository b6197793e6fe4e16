import { expect, it } from 'vitest';
import { main } from '../../examples/embedded.js';

it('examples/embedded.ts manages users and receives a typing event in-process', async () => {
  const { users, received } = await main();
  expect(users).toEqual([
    { user_id: 1, full_name: 'Olivia Owner', role: 100 },
    { user_id: 2, full_name: 'Bob', role: 300 },
  ]);
  expect(received).toEqual({
    id: 0,
    type: 'typing',
    op: 'start',
    message_type: 'direct',
    sender: { user_id: 1, email: 'owner@example.org' },
    recipients: [
      { user_id: 1, email: 'owner@example.org' },
      { user_id: 2, email: 'bob@example.org' },
    ],
  });
});
