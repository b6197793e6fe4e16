/**
 * Embedding teamchat without HTTP: create a realm and users, change a role, list the users,
 * then subscribe to a user's events in-process and receive a typing notification.
 * Run with `node --import tsx examples/embedded.ts`.
 */
import {
  closeContext,
  createRealm,
  createUserAsOperator,
  doSendTyping,
  doUpdateUser,
  getUsers,
  openEventStream,
  type TypingEvent,
} from '@teamchat/core';
import { createSqliteContext } from '@teamchat/core/sqlite';

export interface ExampleOutput {
  users: Array<{ user_id: number; full_name: string; role: number }>;
  /** The event Bob's in-process subscription received. */
  received: TypingEvent & { id: number };
}

export async function main(): Promise<ExampleOutput> {
  // An in-memory SQLite database; pass { databaseFile: 'chat.db' } to keep data.
  const ctx = createSqliteContext();
  try {
    const created = await createRealm(ctx, {
      name: 'Example Org',
      url: 'http://localhost:9991',
      owner: { email: 'owner@example.org', fullName: 'Olivia Owner', password: 'correct horse' },
    });
    if (created.isErr()) throw new Error(created.error.msg);
    const { realm, owner } = created.value;

    const added = await createUserAsOperator(ctx, realm, { email: 'bob@example.org', fullName: 'Bob' });
    if (added.isErr()) throw new Error(added.error.msg);
    const bob = added.value;

    // Operations take the caller (realm + acting user) and the REST API's parameters as typed
    // values: a misspelled or mistyped parameter is a compile error.
    const asOwner = { realm, user: owner };
    const promoted = await doUpdateUser(ctx, asOwner, { user_id: bob.id, role: 300 });
    if (promoted.isErr()) throw new Error(promoted.error.msg);

    const listed = await getUsers(ctx, asOwner, {});
    if (listed.isErr()) throw new Error(listed.error.msg);
    const users = listed.value.members.map((m) => ({
      user_id: m.user_id,
      full_name: m.full_name,
      role: m.role,
    }));

    // Bob subscribes to his typing events, as POST /register would with event_types ["typing"].
    const stream = await openEventStream(ctx, { realm, user: bob }, { event_types: ['typing'] });
    if (stream.isErr()) throw new Error(stream.error.msg);
    const next = stream.value[Symbol.asyncIterator]().next();

    const typed = await doSendTyping(ctx, asOwner, { op: 'start', to: [bob.id] });
    if (typed.isErr()) throw new Error(typed.error.msg);
    const { value: received } = await next;
    stream.value.close();
    if (received?.type !== 'typing') throw new Error('the stream ended without a typing event');
    return { users, received };
  } finally {
    await closeContext(ctx);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { users, received } = await main();
  for (const user of users) console.log(`${user.user_id}\t${user.role}\t${user.full_name}`);
  console.log('Bob received:', JSON.stringify(received));
}
