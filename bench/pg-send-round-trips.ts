/**
 * What one send costs the PostgreSQL driver in conversation with the server, counted rather
 * than timed (timings on the shared machine drift; counts do not): the driver's connections go
 * through a loopback proxy that reads the wire protocol and counts, per send,
 * - **round trips**: how many times the client spoke again after the server had answered (each
 *   is a wait for the server; statements the client pipelines without waiting are one),
 * - **statements**: Execute and simple-Query messages (what the server runs one by one).
 * A realm, a channel with BENCH_SUBSCRIBERS (default 50) subscribers besides the sender, and
 * BENCH_SENDS (default 50) `doSendMessage` calls one at a time, in process (no HTTP). With
 * BENCH_CLUSTER=1 the storage writes each send's events to the cluster's event log, as
 * `teamchat serve --database` does.
 *
 *   npx -y pnpm@10 run build && node --import tsx bench/pg-send-round-trips.ts
 *
 * Needs a PostgreSQL server (BENCH_DATABASE_URL, default postgres://root@127.0.0.1:5432/postgres);
 * it creates a scratch database there and drops it at the end.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { closeContext, createContext, doSendMessage } from '@teamchat/core';
import { createPostgresStorage, joinPostgresCluster } from '@teamchat/postgres';
import { scratchDatabase } from './cluster-database.js';
import { probeWorld } from './probe-world.js';

const subscribers = Number(process.env.BENCH_SUBSCRIBERS ?? 50);
const sends = Number(process.env.BENCH_SENDS ?? 50);
const clustered = process.env.BENCH_CLUSTER === '1';

/** What the proxy has counted since the last reset, over every connection. */
interface Tally {
  roundTrips: number;
  statements: number;
  /** With BENCH_TRACE=1: the statements of each round trip, as SQL texts. */
  trace: string[][];
}

const tracing = process.env.BENCH_TRACE === '1';

/** The NUL-terminated string at `at`, and where the next field starts. */
function cstring(buffer: Buffer, at: number): [string, number] {
  const end = buffer.indexOf(0, at);
  return [buffer.toString('utf8', at, end), end + 1];
}

/** A TCP proxy to `target` that counts round trips and statements of the PostgreSQL protocol. */
async function countingProxy(target: { host: string; port: number }): Promise<{ port: number; tally: Tally; close(): Promise<void> }> {
  const tally: Tally = { roundTrips: 0, statements: 0, trace: [] };
  const prepared = new Map<string, string>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    sockets.add(client).add(upstream);
    // Who spoke last on this connection: a client chunk after a server chunk starts a round trip.
    let serverSpokeLast = true;
    let started = false;
    let pending = Buffer.alloc(0);
    client.on('data', (chunk) => {
      if (serverSpokeLast) {
        tally.roundTrips++;
        if (tracing) tally.trace.push([]);
      }
      serverSpokeLast = false;
      pending = Buffer.concat([pending, chunk]);
      // Frontend messages: the startup message has no type byte; every later one is a type and a length.
      for (;;) {
        if (!started) {
          if (pending.length < 4) break;
          const length = pending.readInt32BE(0);
          if (pending.length < length) break;
          pending = pending.subarray(length);
          started = true;
          continue;
        }
        if (pending.length < 5) break;
        const length = pending.readInt32BE(1) + 1;
        if (pending.length < length) break;
        const type = String.fromCharCode(pending[0]!);
        if (type === 'E' || type === 'Q') tally.statements++;
        if (tracing) {
          const round = tally.trace.at(-1);
          if (type === 'P') {
            const [name, next] = cstring(pending, 5);
            prepared.set(name, cstring(pending, next)[0]);
          } else if (type === 'B') {
            const [, next] = cstring(pending, 5);
            round?.push(prepared.get(cstring(pending, next)[0]) ?? '(unnamed)');
          } else if (type === 'Q') round?.push(cstring(pending, 5)[0]);
        }
        pending = pending.subarray(length);
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      serverSpokeLast = true;
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    tally,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const database = await scratchDatabase('round_trips');
const direct = new URL(database.url);
const proxy = await countingProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
const proxied = new URL(database.url);
proxied.host = `127.0.0.1:${proxy.port}`;
try {
  const cluster = clustered ? await joinPostgresCluster({ url: database.url, nodeId: 'probe' }) : undefined;
  const storage = createPostgresStorage({ url: proxied.toString(), readConnections: 1, detectNestedCalls: false, events: cluster?.events });
  const ctx = createContext({ storage, cluster, config: { timers: false } });
  const { actor } = await probeWorld(ctx, subscribers, 'bench');
  const send = async (i: number) => {
    const sent = await doSendMessage(ctx, actor, { type: 'stream', to: 'bench', topic: `topic ${i % 5}`, content: `hello **${i}**` });
    if (sent.isErr()) throw new Error(sent.error.msg);
  };
  // Warm-up: statements are prepared (a Parse each) on first use, and topics appear.
  for (let i = 0; i < 10; i++) await send(i);
  proxy.tally.roundTrips = 0;
  proxy.tally.statements = 0;
  proxy.tally.trace = [];
  for (let i = 0; i < sends; i++) {
    await send(i);
    if (tracing && i === 0) {
      console.log('one send, round trip by round trip (statements sent together, by their SQL):');
      proxy.tally.trace.forEach((round, n) => {
        const counted = new Map<string, number>();
        for (const text of round) counted.set(text, (counted.get(text) ?? 0) + 1);
        const listed = [...counted].map(([text, count]) => `${count > 1 ? `${count}× ` : ''}${text.replace(/\s+/g, ' ').slice(0, 110)}`);
        console.log(`${String(n + 1).padStart(3)}. ${listed.join('\n     ') || '(no statement: protocol only)'}`);
      });
    }
  }
  const per = (n: number) => (n / sends).toFixed(1);
  console.log(
    `PostgreSQL send to a channel of ${subscribers + 1}${clustered ? ' (cluster event log on)' : ''}: ` +
      `${per(proxy.tally.roundTrips)} round trips, ${per(proxy.tally.statements)} statements per send (${sends} sends)`,
  );
  await closeContext(ctx);
  await cluster?.close();
} finally {
  await proxy.close();
  await database.drop();
}
