/** Builds the benchmark's data: one realm, its owner and `members` members (no passwords). */
import { type Ctx, createContext, createRealm, createUserAsOperator, type User } from '@teamchat/core';

export interface BenchWorld {
  ctx: Ctx;
  owner: User;
  memberIds: number[];
}

export async function buildWorld(members: number, databaseFile?: string): Promise<BenchWorld> {
  const ctx = createContext({ databaseFile });
  const created = await createRealm(ctx, {
    name: 'Bench Org',
    url: 'http://127.0.0.1',
    owner: { email: 'owner@example.com', fullName: 'Olivia Owner', password: 'owner-password' },
  });
  if (created.isErr()) throw new Error(created.error.msg);
  const { realm, owner } = created.value;
  const memberIds: number[] = [];
  for (let i = 0; i < members; i++) {
    const user = await createUserAsOperator(ctx, realm, { email: `user${i}@example.com`, fullName: `User ${i}` });
    if (user.isErr()) throw new Error(user.error.msg);
    memberIds.push(user.value.id);
  }
  return { ctx, owner, memberIds };
}
