/**
 * The presence benchmark's server process: a realm of BENCH_MEMBERS members on a database file
 * (argument), a channel `bench` the owner and 10 members are in, served on a free loopback
 * port. Sends the URL and every member's credentials to the parent over IPC.
 */
import { doSubscribe } from '@teamchat/core';
import { serve } from '@teamchat/http-adapter';
import { buildWorld } from './world.js';

const world = await buildWorld(Number(process.env.BENCH_MEMBERS ?? 200), process.argv[2]);
const users = await world.ctx.storage.read(async (tx) => tx.users.list((await tx.realms.all())[0]!.id));
const realm = await world.ctx.storage.read(async (tx) => (await tx.realms.all())[0]!);
const subscribed = await doSubscribe(world.ctx, { realm, user: world.owner }, {
  subscriptions: JSON.stringify([{ name: 'bench' }]),
  principals: JSON.stringify([world.owner.id, ...world.memberIds.slice(0, 10)]),
});
if (subscribed.isErr()) throw new Error(subscribed.error.msg);
const running = await serve(world.ctx, { port: 0, host: '127.0.0.1' });
process.send!({
  url: running.url,
  owner: { email: world.owner.deliveryEmail, apiKey: world.owner.apiKey },
  members: users.filter((u) => world.memberIds.includes(u.id)).map((u) => ({ email: u.deliveryEmail, apiKey: u.apiKey })),
});
process.on('disconnect', () => void running.close().then(() => process.exit(0)));
