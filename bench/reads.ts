/**
 * The read figures: GET /server_settings (no authentication) and GET /users/me (the owner's
 * API key), in requests per second from autocannon with 50 connections, against a bare h3
 * `serve()` answering the same bytes (bench/baselines/bare-h3.ts) in the same run.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { closedLoop, type Figure, inTurns, listRuns, median, progress, SECONDS, WARMUP_SECONDS } from './harness.js';
import { agentFor, send } from './loopback-client.js';
import { startScript, startTeamchat, stop } from './processes.js';
import { basicAuth, copyWorld, type Credentials, type World } from './seed-world.js';

const CONNECTIONS = 50;

interface ReadCase {
  name: string;
  path: string;
  credentials?: Credentials;
  targetRatio: number;
}

export async function readFigures(world: World, tmp: string): Promise<Figure[]> {
  const cases: ReadCase[] = [
    { name: 'GET /server_settings, req/s', path: '/api/v1/server_settings', targetRatio: 0.6 },
    { name: 'GET /users/me (authenticated), req/s', path: '/api/v1/users/me', credentials: world.owner, targetRatio: 0.5 },
  ];
  const product = await startTeamchat(copyWorld(world, join(tmp, 'reads')));
  const figures: Figure[] = [];
  try {
    for (const [i, c] of cases.entries()) {
      const answer = await send(product.url, agentFor(1), { method: 'GET', path: c.path, credentials: c.credentials });
      if (answer.status !== 200) throw new Error(`GET ${c.path}: ${answer.status}`);
      const bytesFile = join(tmp, `read-${i}.json`);
      writeFileSync(bytesFile, answer.body);
      const bare = await startScript('./baselines/bare-h3.ts', [bytesFile]);
      try {
        const headers = c.credentials ? { authorization: basicAuth(c.credentials) } : undefined;
        const load = (url: string) => async (warmup: boolean) =>
          (await closedLoop({ url: `${url}${c.path}`, connections: CONNECTIONS, seconds: warmup ? WARMUP_SECONDS : SECONDS, headers })).perSecond;
        progress(`${c.name}: bare h3 and teamchat in turns`);
        const runs = await inTurns(load(bare.url), load(product.url));
        figures.push({
          name: c.name,
          unit: 'req/s',
          value: median(runs.product),
          baseline: median(runs.baseline),
          target: { of: 'ratio', atLeast: c.targetRatio },
          notes: [
            `autocannon -c ${CONNECTIONS}, ${SECONDS} s per run; the same ${answer.body.length} bytes from both`,
            `teamchat runs: ${listRuns(runs.product, 'req/s')}; bare h3 runs: ${listRuns(runs.baseline, 'req/s')}`,
          ],
        });
      } finally {
        await stop(bare.child);
      }
    }
  } finally {
    await stop(product.child);
  }
  return figures;
}
