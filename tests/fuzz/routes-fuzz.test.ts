/**
 * Property-based fuzzing of every route through the h3 app's `fetch` (no sockets): whatever a
 * client sends, the answer is never a 5xx, an API answer is always the JSON envelope, no
 * exception reaches the adapter, and no answer takes longer than a generous fixed bound.
 *
 * `FUZZ_RUNS` sets the number of API cases (default: a few hundred cases in all, for `npm test`;
 * `npm run fuzz` runs 100,000, plus a tenth as many file-route cases and concurrent batches).
 * `FUZZ_STATS=1` prints the statuses seen, the routes that answered success and the slowest
 * answer. A failure prints fast-check's seed and path and the request; replay it with
 * `FUZZ_SEED=<seed> FUZZ_PATH=<path>`, running only the failed test (`vitest run tests/fuzz
 * -t API`, `-t file` or `-t concurrent`). The world is rebuilt every WORLD_LIFETIME
 * cases, so a replayed case runs on a fresh world: a failure that needs the state earlier cases
 * left behind replays only with the seed alone (no path).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FuzzWorld, makeFuzzWorld } from './fuzz-world.js';
import { API_OPERATION_COUNT, apiRequest, type FuzzRequest, fileRequest, toRequest } from './fuzz-requests.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 0) || undefined;
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const PATH = process.env.FUZZ_PATH;

/** Generous on purpose: this machine is shared; a stall (a hang, unbounded work) is far slower. */
const ANSWER_BOUND_MS = 2000;
const WORLD_LIFETIME = 250;

/** Cases per property; the file routes are few, so they get fewer cases. */
const apiRuns = RUNS ?? 300;
const fileRuns = RUNS === undefined ? 100 : Math.ceil(RUNS / 10);
const batchRuns = RUNS === undefined ? 40 : Math.ceil(RUNS / 10);

/** A world shared by consecutive cases, rebuilt after WORLD_LIFETIME of them. */
function worldPool() {
  let world: FuzzWorld | undefined;
  let used = 0;
  return async () => {
    if (!world || used++ >= WORLD_LIFETIME) {
      world = await makeFuzzWorld();
      used = 1;
    }
    return world;
  };
}

/** Answers seen, by status and by route (successes): proof that the cases reach the operations. */
interface Tally {
  statuses: Map<number, number>;
  succeeded: Set<string>;
  /** The slowest answer's time and request, to judge the bound's margin (FUZZ_STATS prints it). */
  slowest: { ms: number; request: string };
}

/** Sends one generated request and checks the properties every answer has. */
async function checkOne(world: FuzzWorld, fuzz: FuzzRequest, tally: Tally): Promise<void> {
  const authorization = fuzz.actor === 'garbage' ? fuzz.badAuth : await world.authorization(fuzz.actor);
  const request = toRequest(fuzz, authorization, world.files);
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ANSWER_BOUND_MS);
  });
  const answer = await Promise.race([
    (async () => {
      const response = await world.fetch(request);
      return { response, text: await response.text() };
    })(),
    late,
  ]).finally(() => clearTimeout(timer));
  if (answer === 'late') throw new Error(`no answer within ${ANSWER_BOUND_MS} ms`);
  const { response, text } = answer;
  const ms = performance.now() - started;
  if (ms > tally.slowest.ms) tally.slowest = { ms, request: short(fuzz) };
  tally.statuses.set(response.status, (tally.statuses.get(response.status) ?? 0) + 1);
  if (response.status < 300) tally.succeeded.add(`${fuzz.method} ${fuzz.template}`);
  const summary = `${response.status} ${text.slice(0, 200)}`;
  if (world.internalErrors.length > 0) throw new Error(`internal error: ${String(world.internalErrors.splice(0)[0])} (answer ${summary})`);
  if (response.status >= 500) throw new Error(`5xx answer: ${summary}`);
  const isError = response.status >= 400;
  // API answers are always JSON envelopes; file routes answer bytes, but their errors are envelopes.
  if ((fuzz.kind === 'api' || isError) && response.status !== 204 && fuzz.method !== 'HEAD') {
    if (response.headers.get('content-type') !== 'application/json') throw new Error(`not JSON: ${summary}`);
    let body: { result?: unknown; msg?: unknown };
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`unparseable JSON body: ${summary}`);
    }
    if (body.result !== (isError ? 'error' : 'success') || typeof body.msg !== 'string') throw new Error(`not an envelope: ${summary}`);
  }
}

/** Long strings shortened, so a failing case prints readably. */
function short(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === 'string' && v.length > 120 ? `${v.slice(0, 60)}…(${v.length} chars)` : v));
}

/**
 * Runs a property over batches of requests sent at once (most batches hold one request); a
 * failure names the seed, the path and the (shortened) requests.
 */
async function fuzz(arbitrary: fc.Arbitrary<FuzzRequest[]>, numRuns: number): Promise<Tally> {
  const nextWorld = worldPool();
  const tally: Tally = { statuses: new Map(), succeeded: new Set(), slowest: { ms: 0, request: '' } };
  const property = fc.asyncProperty(arbitrary, async (requests) => {
    const world = await nextWorld();
    await Promise.all(requests.map((request) => checkOne(world, request, tally)));
  });
  const result = await fc.check(property, { numRuns, seed: SEED, path: PATH, endOnFailure: false });
  if (result.failed) {
    const replay = `FUZZ_SEED=${result.seed} FUZZ_PATH=${result.counterexamplePath}`;
    const cause = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
    throw new Error(`fuzz case failed (replay with ${replay}) after ${result.numRuns} cases: ${cause}\nrequests: ${short(result.counterexample?.[0])}`);
  }
  if (process.env.FUZZ_STATS) console.log([...tally.statuses].sort(), [...tally.succeeded].sort(), tally.slowest);
  return tally;
}

/** The cases reached the operations: some were answered with success, some refused. */
function expectBothOutcomes(tally: Tally): void {
  const statuses = [...tally.statuses.keys()];
  expect(statuses.some((status) => status < 400), String(statuses)).toBe(true);
  expect(statuses.some((status) => status >= 400), String(statuses)).toBe(true);
}

describe('route fuzzing', () => {
  it('covers every declared method of every route', () => {
    expect(API_OPERATION_COUNT).toBeGreaterThan(100);
  });

  it('API routes: never a 5xx, always a JSON envelope, always answered in time', { timeout: 60_000 + apiRuns * 200 }, async () => {
    expectBothOutcomes(await fuzz(apiRequest.map((request) => [request]), apiRuns));
  });

  it('file and redirect routes: never a 5xx, errors as JSON envelopes, always answered in time', { timeout: 60_000 + fileRuns * 200 }, async () => {
    expectBothOutcomes(await fuzz(fileRequest.map((request) => [request]), fileRuns));
  });

  // Concurrent requests on the same rows (one request sent several times at once: two creations
  // of one name, two deletions of one row; or different requests racing each other)
  // must be serialised or refused, never surface as a storage constraint's 500.
  it('concurrent batches of API requests: the same properties for each answer', { timeout: 60_000 + batchRuns * 1000 }, async () => {
    const repeated = fc.tuple(apiRequest, fc.integer({ min: 2, max: 4 })).map(([request, count]) => Array.from({ length: count }, () => request));
    expectBothOutcomes(await fuzz(fc.oneof(fc.array(apiRequest, { minLength: 2, maxLength: 6 }), repeated), batchRuns));
  });
});
