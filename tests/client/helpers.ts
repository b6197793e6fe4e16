/** A client for a test server's user, and a server whose world has an upload store. */
import { type Client, createClient } from '@teamchat/client';
import { memoryBlobStore, type User } from '@teamchat/core';
import { makeWorld } from '../helpers/core.js';
import { startServer, type TestServer } from '../helpers/http.js';

/** A client of `server` logged in as `user` (their delivery email and API key). */
export function clientFor(server: TestServer, user?: Pick<User, 'deliveryEmail' | 'apiKey'>, fetchImpl?: typeof fetch): Client {
  return createClient({ url: server.url, email: user?.deliveryEmail, apiKey: user?.apiKey, fetch: fetchImpl });
}

/** A server (uploads kept in memory, real timers off) with an owner and a member, and a client for each. */
export async function clientWorld(config: Record<string, unknown> = {}) {
  const world = await makeWorld({ uploads: memoryBlobStore(), config: { timers: false, ...config } });
  const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
  const server = await startServer(world);
  return { server, world, member, owner: clientFor(server, world.owner), mel: clientFor(server, member) };
}
