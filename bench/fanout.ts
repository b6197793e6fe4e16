/**
 * The fan-out figure: 1,000 members long-poll GET /events (one registered queue each), the owner
 * sends one message to the channel "everyone"; the figure is the time from the send's start
 * until the last poll has its answer. Baseline, in the same run: a bare node:http server
 * releasing 1,000 held requests with a body of the same size (bench/baselines/bare-hold.ts),
 * timed the same way from the client.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Figure, inTurns, listRuns, median, progress } from './harness.js';
import { poll, registerQueues } from './event-queues.js';
import { type Answer, agentFor, send } from './loopback-client.js';
import { startScript, startTeamchat, stop } from './processes.js';
import { copyWorld, MEMBERS, type World } from './seed-world.js';

/** Time for the last poll written to reach the server and wait there before the send (then `ready` checks). */
const SETTLE_MS = 1000;
/** A round whose polls are not all answered by then fails (rather than hanging the suite). */
const ROUND_TIMEOUT_MS = 60_000;
/** Rounds per measured turn (the turn's value is their median). */
const ROUNDS = 3;

export interface Round {
  /** Send start until the last poll answer, ms. */
  lastPollMs: number;
  /** Send start until the sender's own answer, ms. */
  senderMs: number;
  pollBytes: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface RoundSteps {
  /** Starts every poll; each calls `written` once its request is on a connected socket. */
  startPolls(written: () => void): Promise<Answer>[];
  /** Resolves once the server has every poll waiting; called once every poll request is written. */
  ready(): Promise<void>;
  trigger(): Promise<Answer>;
}

/** How the polls of a round are going out: how many are written, and when the last one was. */
export interface Written {
  count: number;
  lastAt: number;
}

/** Counts a poll written now (the `written` callback of `RoundSteps.startPolls`). */
export const noteWritten = (written: Written) => () => {
  written.count++;
  written.lastAt = performance.now();
};

/**
 * Waits until `total` requests are written and the last one is SETTLE_MS old. A round opens
 * hundreds of connections at once (the client's agent keeps 256 idle ones); those beyond the
 * server's accept queue (node's listen backlog, 511) have their SYN dropped and are connected by
 * the kernel's retry one second later. A fixed wait of a second ended about then, so a ready
 * check could pass before they arrived, and their handling was timed as part of the fan-out.
 */
export async function settled(written: Written, total: number): Promise<void> {
  const deadline = performance.now() + ROUND_TIMEOUT_MS;
  for (;;) {
    const now = performance.now();
    if (written.count >= total && now - written.lastAt >= SETTLE_MS) return;
    if (now > deadline) throw new Error(`only ${written.count} of ${total} polls were sent after ${ROUND_TIMEOUT_MS} ms`);
    await sleep(written.count >= total ? SETTLE_MS - (now - written.lastAt) : 50);
  }
}

/** Starts every poll, waits until they wait at the server, triggers the release and times both sides. */
export async function round({ startPolls, ready, trigger }: RoundSteps): Promise<Round> {
  const written: Written = { count: 0, lastAt: performance.now() };
  const polls = startPolls(noteWritten(written));
  let lastPoll = 0;
  let answered = 0;
  const all = Promise.all(polls.map((p) => p.then((answer) => {
    lastPoll = performance.now();
    answered++;
    return answer;
  })));
  all.catch(() => undefined); // awaited below; a poll failing earlier must not end the process
  await settled(written, polls.length);
  await ready();
  if (answered > 0) throw new Error(`${answered} polls were answered before the send`);
  const started = performance.now();
  const sent = await trigger();
  const senderMs = performance.now() - started;
  if (sent.status !== 200) throw new Error(`release: ${sent.status} ${sent.body.toString('utf8')}`);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`only ${answered} of ${polls.length} polls answered after ${ROUND_TIMEOUT_MS} ms`)), ROUND_TIMEOUT_MS);
  });
  const answers = await Promise.race([all, timeout]).finally(() => clearTimeout(timer));
  return { lastPollMs: lastPoll - started, senderMs, pollBytes: median(answers.map((a) => a.body.length)) };
}

export async function fanoutFigures(world: World, tmp: string): Promise<Figure[]> {
  const product = await startTeamchat(copyWorld(world, join(tmp, 'fanout')));
  const bare = await startScript('./baselines/bare-hold.ts', []);
  try {
    progress(`fan-out: registering ${MEMBERS} queues`);
    const queues = await registerQueues(product.url, world.members, 'messages');
    const productAgent = agentFor(MEMBERS + 1);
    const bareAgent = agentFor(MEMBERS + 1);
    const senderAgent = agentFor(1);
    let message = 0;
    const productRound = () =>
      round({
        startPolls: (written) => queues.map((q) => poll(product.url, productAgent, q, written)),
        // teamchat cannot say how many polls wait; a request sent once every poll was written
        // having its answer means the server has caught up with what arrived before it (in
        // practice, the polls; unlike the bare server's count, this is not a proof).
        ready: async () => void (await send(product.url, senderAgent, { method: 'GET', path: '/api/v1/server_settings' })),
        trigger: () =>
          send(product.url, senderAgent, {
            method: 'POST',
            path: '/api/v1/messages',
            credentials: world.owner,
            form: { type: 'stream', to: String(world.everyoneStreamId), topic: 'fan-out', content: `message ${message++}` },
          }),
      });
    // The bare body's size is the product's poll answer's: learnt from a first product round.
    const pollBytes = (await productRound()).pollBytes;
    const bareRound = () =>
      round({
        startPolls: (written) => queues.map(() => send(bare.url, bareAgent, { method: 'GET', path: '/events', written })),
        ready: async () => {
          for (;;) {
            const { held } = JSON.parse((await send(bare.url, senderAgent, { method: 'POST', path: '/held' })).body.toString('utf8')) as { held: number };
            if (held >= queues.length) return;
            await sleep(50);
          }
        },
        trigger: () => send(bare.url, senderAgent, { method: 'POST', path: `/release?bytes=${pollBytes}` }),
      });
    const senderMs: number[] = [];
    const turn = (rounds: () => Promise<Round>, product: boolean) => async (warmup: boolean) => {
      const results: Round[] = [];
      for (let i = 0; i < (warmup ? 1 : ROUNDS); i++) results.push(await rounds());
      if (product && !warmup) senderMs.push(...results.map((r) => r.senderMs));
      return median(results.map((r) => r.lastPollMs));
    };
    progress(`fan-out: bare node:http and teamchat in turns (${ROUNDS} rounds a turn)`);
    const runs = await inTurns(turn(bareRound, false), turn(productRound, true));
    for (const agent of [productAgent, bareAgent, senderAgent]) agent.destroy();
    return [
      {
        name: `one message to ${MEMBERS.toLocaleString('en-US')} long-polls, send start → last poll answered`,
        unit: 'ms',
        value: median(runs.product),
        baseline: median(runs.baseline),
        target: { of: 'ratio', atMost: 1.5 },
        notes: [
          `${MEMBERS} queues of ${MEMBERS} users, each poll on its own connection; poll answer ${pollBytes} bytes (the bare server answers as many); each turn the median of ${ROUNDS} rounds`,
          `teamchat turns: ${listRuns(runs.product, 'ms')}; bare turns: ${listRuns(runs.baseline, 'ms')}; the sender's own answer came after a median ${median(senderMs).toFixed(1)} ms`,
        ],
      },
    ];
  } finally {
    await stop(bare.child);
    await stop(product.child);
  }
}
