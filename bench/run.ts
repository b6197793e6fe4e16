/**
 * Benchmarks: in-process queries and actions, and HTTP throughput against a real server running
 * in a child process on loopback (so the load generator does not share its event loop).
 *
 *   npm run bench                       # a few minutes: includes the 1,000,000-message run (bench/messages.ts)
 *   BENCH_SKIP_MESSAGES=1 npm run bench # about 45 s, without it
 *   BENCH_DURATION_MS=500 npm run bench # a quick smoke run
 *   node --import tsx bench/presence.ts # the presence rows alone (bench/presence.ts)
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { doUpdateUser, getUsers } from '@teamchat/core';
import { measure, printTable, type Sample } from './harness.js';
import { httpClient } from './http-client.js';
import { buildWorld } from './world.js';
import { messageBenchmarks } from './messages.js';
import { presenceBenchmarks } from './presence.js';

const MEMBERS = 1000;
const durationMs = Number(process.env.BENCH_DURATION_MS ?? 2500);
const samples: Sample[] = [];
const notes: string[] = [];
const record = (sample: Sample) => {
  samples.push(sample);
  console.error(`  done: ${sample.name} (conc ${sample.concurrency})`);
};
const tmp = mkdtempSync(join(tmpdir(), 'teamchat-bench-'));

interface ServerInfo {
  url: string;
  email: string;
  apiKey: string;
  memberIds: number[];
}

async function startServer(databaseFile?: string): Promise<{ child: ChildProcess; info: ServerInfo }> {
  const child = fork(new URL('./server.ts', import.meta.url), databaseFile ? [databaseFile] : [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_MEMBERS: String(MEMBERS) },
  });
  const info = await new Promise<ServerInfo>((resolve, reject) => {
    child.once('message', (m) => resolve(m as ServerInfo));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { child, info };
}

async function stopServer(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.disconnect();
  await exited;
}

async function inProcess(): Promise<void> {
  console.error(`in-process, realm with ${MEMBERS + 1} users`);
  const memory = await buildWorld(MEMBERS);
  const realm = (await memory.ctx.storage.read((tx) => tx.realms.all()))[0]!;
  const caller = { realm, user: memory.owner };
  record(
    await measure(`getUsers (${MEMBERS + 1} users), in-process`, async () => {
      const r = await getUsers(memory.ctx, caller, {});
      if (r.isErr()) throw new Error(r.error.msg);
    }, { durationMs }),
  );
  record(
    await measure(`storage.read users.list (${MEMBERS + 1} rows)`, () =>
      memory.ctx.storage.read((tx) => tx.users.list(realm.id)), { durationMs }),
  );
  const ids = memory.memberIds;
  record(
    await measure('doUpdateUser full_name, in-process, :memory:', async (i) => {
      const r = await doUpdateUser(memory.ctx, caller, { user_id: ids[i % ids.length], full_name: `Name ${i}` });
      if (r.isErr()) throw new Error(r.error.msg);
    }, { durationMs, concurrency: 16 }),
  );
  await memory.ctx.storage.close();

  const file = await buildWorld(100, join(tmp, 'inprocess.db'));
  const fileRealm = (await file.ctx.storage.read((tx) => tx.realms.all()))[0]!;
  record(
    await measure('doUpdateUser full_name, in-process, file (sync=FULL)', async (i) => {
      const r = await doUpdateUser(file.ctx, { realm: fileRealm, user: file.owner }, {
        user_id: file.memberIds[i % file.memberIds.length], full_name: `Name ${i}`,
      });
      if (r.isErr()) throw new Error(r.error.msg);
    }, { durationMs, concurrency: 16 }),
  );
  await file.ctx.storage.close();
}

async function overHttp(label: string, databaseFile?: string): Promise<void> {
  console.error(`HTTP, ${label}`);
  const { child, info } = await startServer(databaseFile);
  try {
    const levels = databaseFile ? [16] : [1, 16, 64];
    for (const concurrency of levels) {
      const client = httpClient(info.url, info.email, info.apiKey, concurrency);
      record(await measure(`HTTP GET /users/me, ${label}`, () => client.call('GET', '/users/me'), { durationMs, concurrency }));
      client.close();
    }
    const client = httpClient(info.url, info.email, info.apiKey, 16);
    if (!databaseFile) {
      record(
        await measure(`HTTP GET /users (${MEMBERS + 1} users), ${label}`, () => client.call('GET', '/users'), {
          durationMs, concurrency: 16,
        }),
      );
    }
    const ids = info.memberIds;
    record(
      await measure(`HTTP PATCH /users/{id} full_name, ${label}`, (i) =>
        client.call('PATCH', `/users/${ids[i % ids.length]}`, { full_name: `Name ${i}` }), { durationMs, concurrency: 16 }),
    );
    client.close();
  } finally {
    await stopServer(child);
  }
}

const started = Date.now();
try {
  await inProcess();
  await overHttp(':memory:');
  await overHttp('file (sync=FULL)', join(tmp, 'http.db'));
  const presence = await presenceBenchmarks(durationMs);
  samples.push(...presence.samples);
  notes.push(...presence.notes);
  if (process.env.BENCH_SKIP_MESSAGES !== '1') {
    const messages = await messageBenchmarks(durationMs);
    samples.push(...messages.samples);
    notes.push(...messages.notes);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
console.log(`\nteamchat benchmarks (node ${process.version}, ${durationMs} ms per row, loopback only)\n`);
printTable(samples);
for (const note of notes) console.log(note);
console.log(`\ntotal ${((Date.now() - started) / 1000).toFixed(1)} s`);
