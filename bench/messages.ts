/**
 * Message benchmarks over a seeded history (defaults: 1,000,000 messages, 100 channels, 1,000
 * users): GET /messages narrows, POST /messages/flags, POST /messages and a topic deletion,
 * against a real server in a child process on loopback.
 *
 *   npm run bench                                    # includes these
 *   BENCH_MESSAGES=100000 node --import tsx bench/messages.ts   # a smaller history
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { closeContext } from '@teamchat/core';
import { measure, printTable, type Sample } from './harness.js';
import { httpClient } from './http-client.js';
import { seedMessages } from './seed-messages.js';

export async function messageBenchmarks(durationMs: number): Promise<{ samples: Sample[]; notes: string[] }> {
  const sizes = {
    messages: Number(process.env.BENCH_MESSAGES ?? 1_000_000),
    channels: 100,
    users: 1000,
    subscribersPerChannel: 10,
    topicsPerChannel: 10,
    bigTopicMessages: 50_000,
  };
  const tmp = mkdtempSync(join(tmpdir(), 'teamchat-bench-messages-'));
  const file = join(tmp, 'messages.db');
  const samples: Sample[] = [];
  const notes: string[] = [];
  try {
    console.error(`seeding ${sizes.messages} messages (+${sizes.bigTopicMessages} in one topic), ${sizes.channels} channels, ${sizes.users} users`);
    const seedStart = performance.now();
    const world = await seedMessages(sizes, file, (line) => console.error(line));
    notes.push(`seeding ${sizes.messages + sizes.bigTopicMessages} messages took ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);
    const { streamIds, bigTopic } = world;
    await closeContext(world.ctx);

    const child = fork(new URL('./serve-file.ts', import.meta.url), [file], { execArgv: ['--import', 'tsx'] });
    const info = await new Promise<{ url: string; email: string; apiKey: string }>((resolve, reject) => {
      child.once('message', (m) => resolve(m as never));
      child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    });
    try {
      const client = httpClient(info.url, info.email, info.apiKey, 8);
      const narrow = (terms: unknown) => encodeURIComponent(JSON.stringify(terms));
      samples.push(
        await measure('GET /messages channel+topic, newest 50', (i) =>
          client.call('GET', `/messages?anchor=newest&num_before=50&num_after=0&narrow=${narrow([
            { operator: 'channel', operand: streamIds[i % streamIds.length] },
            { operator: 'topic', operand: `topic ${i % 10}` },
          ])}`), { durationMs, concurrency: 8 }),
      );
      samples.push(
        await measure('GET /messages is:unread, newest 50', () =>
          client.call('GET', `/messages?anchor=newest&num_before=50&num_after=0&narrow=${narrow([{ operator: 'is', operand: 'unread' }])}`),
        { durationMs, concurrency: 8 }),
      );
      samples.push(
        await measure('GET /messages is:unread, first_unread', () =>
          client.call('GET', `/messages?anchor=first_unread&num_before=0&num_after=50&narrow=${narrow([{ operator: 'is', operand: 'unread' }])}`),
        { durationMs, concurrency: 8 }),
      );
      samples.push(
        await measure('POST /messages/flags starred, 1,000 ids', (i) => {
          const first = 1 + ((i * 1000) % (sizes.messages - 1000));
          const ids = Array.from({ length: 1000 }, (_, k) => first + k);
          return client.call('POST', '/messages/flags', { messages: JSON.stringify(ids), op: i % 2 ? 'remove' : 'add', flag: 'starred' });
        }, { durationMs, concurrency: 4 }),
      );
      samples.push(
        await measure('POST /messages to a channel', (i) =>
          client.call('POST', '/messages', { type: 'stream', to: String(streamIds[i % streamIds.length]), topic: 'bench', content: `hello **${i}**` }),
        { durationMs, concurrency: 8 }),
      );
      let requests = 0;
      const deleteStart = performance.now();
      for (;;) {
        requests++;
        const answer = await client.call('POST', `/streams/${bigTopic.streamId}/delete_topic`, { topic_name: bigTopic.topic });
        if (answer.complete === true) break;
      }
      notes.push(
        `POST /streams/{id}/delete_topic of ${sizes.bigTopicMessages} messages: ${requests} request(s), ${((performance.now() - deleteStart) / 1000).toFixed(1)} s`,
      );
      client.close();
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.disconnect();
      await exited;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return { samples, notes };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { samples, notes } = await messageBenchmarks(Number(process.env.BENCH_DURATION_MS ?? 3000));
  printTable(samples);
  for (const note of notes) console.log(note);
}
