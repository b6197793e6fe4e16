/**
 * The benchmark's server process: builds a world, serves it on a free loopback port and sends
 * the URL and the owner's credentials to the parent over IPC. Argument: a database file, or none.
 */
import { serve } from '@teamchat/http-adapter';
import { buildWorld } from './world.js';

const world = await buildWorld(Number(process.env.BENCH_MEMBERS ?? 1000), process.argv[2]);
const running = await serve(world.ctx, { port: 0, host: '127.0.0.1' });
process.send!({
  url: running.url,
  email: world.owner.deliveryEmail,
  apiKey: world.owner.apiKey,
  memberIds: world.memberIds,
});
process.on('disconnect', () => void running.close().then(() => process.exit(0)));
