/**
 * Embedding teamchat without HTTP: create a realm and users, change a role, list the users.
 * Run with `node --import tsx examples/embedded.ts`.
 */
import {
  createContext,
  createRealm,
  createUserAsOperator,
  doUpdateUser,
  getUsers,
} from '@teamchat/core';

export async function main(): Promise<Array<{ user_id: number; full_name: string; role: number }>> {
  // An in-memory SQLite database; pass { databaseFile: 'chat.db' } to keep data.
  const ctx = createContext();
  try {
    const created = await createRealm(ctx, {
      name: 'Example Org',
      url: 'http://localhost:9991',
      owner: { email: 'owner@example.org', fullName: 'Olivia Owner', password: 'correct horse' },
    });
    if (created.isErr()) throw new Error(created.error.msg);
    const { realm, owner } = created.value;

    const bob = await createUserAsOperator(ctx, realm, { email: 'bob@example.org', fullName: 'Bob' });
    if (bob.isErr()) throw new Error(bob.error.msg);

    // Operations take the caller (realm + acting user) and the same parameters as the REST API.
    const owners = { realm, user: owner };
    const promoted = await doUpdateUser(ctx, owners, { user_id: bob.value.id, role: 300 });
    if (promoted.isErr()) throw new Error(promoted.error.msg);

    const listed = await getUsers(ctx, owners, {});
    if (listed.isErr()) throw new Error(listed.error.msg);
    return listed.value.members.map((m) => ({
      user_id: m.user_id as number,
      full_name: m.full_name as string,
      role: m.role as number,
    }));
  } finally {
    await ctx.storage.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const user of await main()) console.log(`${user.user_id}\t${user.role}\t${user.full_name}`);
}
