/**
 * The in-process probes' world: a realm with its owner and `members` more users, all subscribed
 * to one channel, created through core's operations on the probe's own context. A probe that
 * loads another copy of core (profile-send.ts's BENCH_CORE) passes that copy's operations.
 */
import * as defaultCore from '@teamchat/core';

type Operations = Pick<typeof defaultCore, 'createRealm' | 'createUserAsOperator' | 'doSubscribe'>;

/** The benchmarks' realm and its owner (owner@example.com), as every seeded world has them. */
export async function benchRealm(ctx: defaultCore.Ctx, core: Pick<Operations, 'createRealm'> = defaultCore) {
  const created = await core.createRealm(ctx, {
    name: 'Bench Org',
    url: 'http://127.0.0.1',
    owner: { email: 'owner@example.com', fullName: 'Olivia Owner', password: 'owner-password' },
  });
  if (created.isErr()) throw new Error(created.error.msg);
  return created.value;
}

export async function probeWorld(ctx: defaultCore.Ctx, members: number, channel: string, core: Operations = defaultCore) {
  const { createUserAsOperator, doSubscribe } = core;
  const { realm, owner } = await benchRealm(ctx, core);
  const memberIds: number[] = [];
  for (let i = 0; i < members; i++) {
    const user = await createUserAsOperator(ctx, realm, { email: `user${i}@example.com`, fullName: `User ${i}` });
    if (user.isErr()) throw new Error(user.error.msg);
    memberIds.push(user.value.id);
  }
  const subscribed = await doSubscribe(ctx, { realm, user: owner }, { subscriptions: [{ name: channel }], principals: [owner.id, ...memberIds] });
  if (subscribed.isErr()) throw new Error(subscribed.error.msg);
  const streamId = await ctx.storage.read(async (tx) => (await tx.streams.byName(realm.id, channel))!.id);
  return { realm, owner, memberIds, streamId, actor: { realm, user: owner } };
}
