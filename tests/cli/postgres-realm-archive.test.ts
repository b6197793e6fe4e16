/**
 * An organisation moved between drivers: exported from a SQLite data directory and imported into
 * a PostgreSQL database, then exported from there and imported into a fresh SQLite directory,
 * every table's rows of the realm and its message contents arriving whole. Runs in the
 * `postgres` project only (TEAMCHAT_TEST_DATABASE_URL).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { postgresTestDatabase } from '../helpers/storage.js';
import { closeContext, fillRealm, type Installation, openHandle, openInstallation, realmCounts, teamchat } from './realm-archive-fixture.js';

let output = '';
beforeEach(() => {
  output = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    output += String(chunk);
    return true;
  });
});
afterEach(() => vi.restoreAllMocks());

const scratch = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));
const sqliteInstallation = (): Installation => {
  const dir = scratch('teamchat-sqlite-');
  return { dir, args: ['--data', dir] };
};
const postgresInstallation = async (): Promise<Installation> => {
  const dir = scratch('teamchat-pg-');
  const url = await postgresTestDatabase();
  return { dir, url, args: ['--data', dir, '--database', url] };
};

async function snapshot(installation: Installation, subdomain: string) {
  const db = await openHandle(installation);
  try {
    const [{ id }] = (await db.all('SELECT id FROM realm WHERE subdomain = ?', [subdomain])) as [{ id: number }];
    const contents = ((await db.all('SELECT content, rendered_content FROM message WHERE realm_id = ? ORDER BY id', [id])) as { content: string; rendered_content: string }[]).map(
      (m) => [m.content.replace(/\d+/g, 'N'), m.rendered_content.replace(/\d+/g, 'N')],
    );
    const emoji = (await db.all('SELECT bytes FROM realm_emoji_image WHERE emoji_id IN (SELECT id FROM realm_emoji WHERE realm_id = ?)', [id])) as { bytes: Uint8Array }[];
    return { counts: await realmCounts(db, id), contents, emoji: emoji.map((e) => Buffer.from(e.bytes).toString('hex')) };
  } finally {
    await db.close();
  }
}

describe('an organisation moved between SQLite and PostgreSQL', () => {
  it('arrives whole in each direction', async () => {
    const sqlite = sqliteInstallation();
    const ctx = openInstallation(sqlite);
    await fillRealm(ctx, { subdomain: 'acme', url: 'http://acme.example.com', name: 'Acme' });
    await closeContext(ctx);
    const original = await snapshot(sqlite, 'acme');
    expect(original.counts.message).toBe(4);

    const first = join(scratch('teamchat-archive-'), 'acme.tar.gz');
    await teamchat(['export', '--realm', 'acme', '--out', first, ...sqlite.args]);
    const postgres = await postgresInstallation();
    await teamchat(['import', '--archive', first, ...postgres.args]);
    expect(await snapshot(postgres, 'acme')).toEqual(original);

    const second = join(scratch('teamchat-archive-'), 'acme-again.tar.gz');
    await teamchat(['export', '--realm', 'acme', '--out', second, ...postgres.args]);
    const back = sqliteInstallation();
    await teamchat(['import', '--archive', second, ...back.args]);
    expect(await snapshot(back, 'acme')).toEqual(original);
    expect(output).toContain('Imported realm');
  });
});
