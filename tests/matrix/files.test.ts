/**
 * The matrix's cross-realm rule for the routes served beside the API (FILE_ROUTES and
 * REDIRECT_ROUTES): a path naming another realm's file, emoji or user gets the same answer as
 * one naming nothing, and never that realm's bytes or a hash of its users' emails.
 */
import { createHash } from 'node:crypto';
import { FILE_ROUTES, REDIRECT_ROUTES } from '@teamchat/http-adapter';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MatrixRequest } from './client.js';
import type { RealmIds } from './world.js';
import { buildMatrixWorld, type MatrixWorld } from './world.js';

/** For each path of the two tables: the path naming one realm's object (`r`), from the first realm's view. */
const PATHS: Record<string, ((r: RealmIds) => string) | { skip: string }> = {
  '/user_avatars/{realm_id}/emoji/images/{file}': (r) => r.emojiImagePath,
  '/user_uploads/{realm_id}/{+filename}': (r) => `/user_uploads/${r.users.member.uploadPath}`,
  '/user_uploads/temporary/{token}/{filename}': { skip: 'a token is minted per file by GET /user_uploads/…, covered by the matrix row' },
  '/static/generated/emoji/{file}': { skip: 'the server’s own emoji data, the same for every realm' },
  '/user_avatars/{realm_id}/{file}': (r) => r.avatarImagePath,
  '/avatar/{user_id_or_email}': (r) => `/avatar/${r.victim.user.id}`,
  '/avatar/{user_id_or_email}/medium': (r) => `/avatar/${r.victim.user.id}/medium`,
};

const md5 = (s: string) => createHash('md5').update(s.trim().toLowerCase()).digest('hex');

describe('permission matrix: files and redirects beside the API', () => {
  let w: MatrixWorld;
  beforeAll(async () => {
    w = await buildMatrixWorld();
  });

  it('every file and redirect route has a row here', () => {
    const paths = [...FILE_ROUTES, ...REDIRECT_ROUTES].map((r) => r.path);
    expect(paths.filter((p) => !(p in PATHS)).map((p) => `${p}: add its row to tests/matrix/files.test.ts`)).toEqual([]);
  });

  it('another realm’s objects answer as unknown ones do, and leak nothing', async () => {
    // The unknown realm: IDs that exist nowhere, in the first realm's own realm_id.
    const unknown = {
      ...w.alpha,
      victim: { ...w.alpha.victim, user: { ...w.alpha.victim.user, id: 987_654 } },
      emojiImagePath: w.bravo.emojiImagePath.replace(/[^/]+$/, '987654.png'),
      avatarImagePath: w.bravo.avatarImagePath.replace(/[^/]+$/, 'nosuchnosuch.png'),
    };
    unknown.users = { ...w.alpha.users, member: { ...w.alpha.users.member, uploadPath: `${w.bravo.realmId}/00/nosuchnosuch/none.txt` } };
    const bravoHashes = [w.bravo.victim.user, ...Object.values(w.bravo.users).map((o) => o.user)].map((u) => md5(u.deliveryEmail));
    const problems: string[] = [];
    for (const [template, path] of Object.entries(PATHS)) {
      if (typeof path !== 'function') continue;
      for (const caller of [w.alpha.users.member.user, null]) {
        const ask = (r: RealmIds): MatrixRequest => ({ method: 'GET', path: path(r), outsideApi: true });
        // The path is real: the first realm's member reaches the first realm's object.
        const own = await w.send(w.alpha.host, w.alpha.users.member.user, ask(w.alpha));
        if (own.status >= 400) problems.push(`${template}: ${own.status} for the member's own realm (the row's path is wrong)`);
        const foreign = await w.send(w.alpha.host, caller, ask(w.bravo));
        const none = await w.send(w.alpha.host, caller, ask(unknown));
        const who = caller ? 'member' : 'spectator';
        if (foreign.status !== none.status) problems.push(`${who} ${template}: ${foreign.status} for the other realm, ${none.status} for nothing`);
        if (foreign.text.includes('bravo')) problems.push(`${who} ${template}: the other realm's bytes`);
        if (bravoHashes.some((h) => foreign.location?.includes(h))) problems.push(`${who} ${template}: a hash of the other realm's email`);
      }
    }
    expect(problems).toEqual([]);
  });
});
