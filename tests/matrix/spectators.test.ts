/**
 * Spectator rows of the permission matrix against the realm setting that allows them: with
 * spectator access a spectator sees the web-public channel (so the matrix's "nothing else"
 * check is not vacuous); without it every row open to spectators answers the reference's 401.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ENTRIES } from './routes.js';
import { buildMatrixWorld, type MatrixWorld } from './world.js';

const spectatorRows = ENTRIES.filter((e) => e.rule?.allow === 'spectator');

describe('permission matrix: spectators and the realm setting', () => {
  let w: MatrixWorld;
  beforeAll(async () => {
    w = await buildMatrixWorld();
  });

  it('a spectator registering sees the web-public channel', async () => {
    const response = await w.send(w.alpha.host, null, { method: 'POST', path: '/register' });
    expect(response.status, response.text).toBe(200);
    expect(response.text).toContain(w.alpha.webChannel.name);
  });

  it('without spectator access every row open to spectators answers 401', async () => {
    expect(spectatorRows.length).toBeGreaterThan(0);
    const off = await w.send(w.alpha.host, w.alpha.users.owner.user, { method: 'PATCH', path: '/realm', form: { enable_spectator_access: 'false' } });
    expect(off.status, off.text).toBe(200);
    for (const { key, rule } of spectatorRows) {
      const response = await w.send(w.alpha.host, null, rule!.request(w.alpha, w.alpha.victim));
      expect([key, response.status, response.body?.code]).toEqual([key, 401, 'UNAUTHORIZED']);
    }
  });
});
