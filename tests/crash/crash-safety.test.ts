/**
 * Crash safety of the built server: each round restarts `teamchat serve` on the same data
 * directory, seeds a topic, then runs concurrent sends and a whole-topic move while the process
 * is killed with SIGKILL at a random moment. After a restart, every send that was acknowledged
 * is there with its content, and the seeded topic was moved wholly or not at all (wholly if
 * the move was acknowledged). Nothing is acknowledged before its commit, so nothing acknowledged
 * may be lost; what was in flight may or may not be there.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { crash, ensureBuiltCli, killAll, type ServeProcess, startServe } from './serve-process.js';

const ROUNDS = 5;
const SENDERS = 4;
const SEEDED = 8;
/** The kill comes this long after the chaos starts, at most: a round stays a few seconds. */
const MAX_KILL_DELAY_MS = 1200;
const CHANNEL = 'crash';

interface Owner {
  authorization: string;
}

interface StoredMessage {
  id: number;
  content: string;
  topic: string;
}

async function api(server: ServeProcess, owner: Owner, method: string, path: string, values: Record<string, string> = {}) {
  const query = method === 'GET' ? `?${new URLSearchParams(values)}` : '';
  const response = await fetch(`${server.url}/api/v1${path}${query}`, {
    method,
    headers: { authorization: owner.authorization },
    body: method === 'GET' ? undefined : new URLSearchParams(values),
    signal: AbortSignal.timeout(10_000),
  });
  const body = await response.json();
  return { status: response.status, body };
}

async function send(server: ServeProcess, owner: Owner, topic: string, content: string): Promise<number> {
  const { status, body } = await api(server, owner, 'POST', '/messages', { type: 'stream', to: CHANNEL, topic, content });
  if (status !== 200) throw new Error(`send answered ${status}: ${JSON.stringify(body)}`);
  return body.id;
}

/** Every message of the channel, raw content and topic. */
async function channelMessages(server: ServeProcess, owner: Owner): Promise<Map<number, StoredMessage>> {
  const narrow = JSON.stringify([{ operator: 'channel', operand: CHANNEL }]);
  const found = new Map<number, StoredMessage>();
  let anchor = 'oldest';
  for (;;) {
    const { status, body } = await api(server, owner, 'GET', '/messages', { anchor, num_before: '0', num_after: '1000', narrow, apply_markdown: 'false' });
    expect(status, JSON.stringify(body)).toBe(200);
    for (const m of body.messages) found.set(m.id, { id: m.id, content: m.content, topic: m.subject ?? m.topic });
    if (body.found_newest || body.messages.length === 0) return found;
    anchor = String(body.messages.at(-1).id + 1);
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('crash safety', () => {
  let dir: string;
  beforeAll(() => {
    ensureBuiltCli();
    dir = mkdtempSync(join(tmpdir(), 'teamchat-crash-'));
  }, 300_000);
  afterEach(killAll);
  afterAll(async () => {
    await killAll();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every acknowledged send and moves a topic wholly or not at all across SIGKILLs', { timeout: 180_000 }, async () => {
    let server = await startServe(dir);
    // The first start writes the owner's credentials to DIR/zuliprc (and to stderr, not the log).
    const rc = readFileSync(join(dir, 'zuliprc'), 'utf8');
    const email = /email=(.*)/.exec(rc)![1]!.trim();
    const key = /key=(.*)/.exec(rc)![1]!.trim();
    const owner: Owner = { authorization: `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}` };
    const created = await api(server, owner, 'POST', '/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: CHANNEL }]) });
    expect(created.status, JSON.stringify(created.body)).toBe(200);

    /** Content of every acknowledged send, by message ID, over all rounds. */
    const acknowledged = new Map<number, string>();
    const moves: { seeded: number[]; from: string; to: string; acknowledged: boolean }[] = [];

    for (let round = 0; round < ROUNDS; round++) {
      if (round > 0) server = await startServe(dir);
      const from = `movable ${round}`;
      const to = `moved ${round}`;
      const seeded: number[] = [];
      for (let i = 0; i < SEEDED; i++) {
        const content = `seed ${round}.${i}`;
        const id = await send(server, owner, from, content);
        acknowledged.set(id, content);
        seeded.push(id);
      }
      const move = { seeded, from, to, acknowledged: false };
      moves.push(move);

      // The chaos: senders in a loop and the move, until the kill cuts them off.
      let killed = false;
      const sender = async (worker: number) => {
        for (let i = 0; !killed; i++) {
          const content = `load ${round}.${worker}.${i}`;
          try {
            acknowledged.set(await send(server, owner, `load ${round}`, content), content);
          } catch {
            return; // the connection died with the server: this send was never acknowledged
          }
        }
      };
      const mover = async () => {
        await pause(Math.random() * MAX_KILL_DELAY_MS * 0.5);
        try {
          const { status } = await api(server, owner, 'PATCH', `/messages/${seeded[0]}`, { topic: to, propagate_mode: 'change_all' });
          move.acknowledged = status === 200;
        } catch {
          // killed before the answer
        }
      };
      const work = Promise.all([...Array.from({ length: SENDERS }, (_, w) => sender(w)), mover()]);
      await pause(50 + Math.random() * MAX_KILL_DELAY_MS);
      killed = true;
      await crash(server);
      await work;
    }

    server = await startServe(dir);
    const stored = await channelMessages(server, owner);
    const lost = [...acknowledged].filter(([id, content]) => stored.get(id)?.content !== content);
    expect(lost, `acknowledged sends missing after the crashes (of ${acknowledged.size})`).toEqual([]);
    for (const move of moves) {
      const topics = new Set(move.seeded.map((id) => stored.get(id)!.topic));
      expect(topics.size, `${move.from}: ${[...topics].join(', ')}`).toBe(1);
      const [topic] = topics;
      expect([move.from, move.to]).toContain(topic);
      if (move.acknowledged) expect(topic).toBe(move.to);
    }
    // The rounds did real work: sends were acknowledged during the chaos, not only the seeds.
    expect(acknowledged.size).toBeGreaterThan(ROUNDS * SEEDED);
    await crash(server);
  });
});
