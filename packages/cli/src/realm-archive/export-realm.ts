/**
 * `teamchat export`: one realm's rows and files into an organisation archive (archive-format.ts).
 * Every row is read in one snapshot of the database, page by page, and written a line at a time,
 * so the export of a large realm needs no more memory than a page, and the server keeps running.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { once } from 'node:events';
import { avatarBlobKey, uploadedAvatarFile } from '@teamchat/core/internal';
import { create as createTar } from 'tar';
import { CliError } from '../data-dir.js';
import { encodeRow, MANIFEST_FILE, REALM_ARCHIVE_FORMAT, REALM_ARCHIVE_VERSION, type RealmArchiveManifest, tableFile } from './archive-format.js';
import { avatarArchivePath, UPLOADS_DIR } from './archive-files.js';
import { type DatabaseHandle, type Queryable, quote, type Row } from './database-handle.js';
import type { StepProgress } from './progress.js';
import { REALM_TABLES } from './realm-tables.js';

const PAGE = 1000;

export interface ExportOptions {
  db: DatabaseHandle;
  /** The installation's blob store directory (the data directory's `uploads`). */
  uploadsDir: string;
  /** A realm's subdomain, URL or ID. */
  realm: string;
  out: string;
  progress: StepProgress;
}

export interface RealmSummary {
  id: number;
  subdomain: string;
  url: string;
  name: string;
  uuid: string;
}

/** The realm `--realm` names: by subdomain ('' is the root realm), by URL, or by ID. */
export async function findRealmRow(db: Queryable, wanted: string): Promise<RealmSummary> {
  const rows = (await db.all('SELECT id, subdomain, url, name, uuid FROM realm ORDER BY id')) as unknown as RealmSummary[];
  const trimmed = wanted.replace(/\/+$/, '');
  const found =
    rows.find((r) => r.subdomain === wanted) ?? rows.find((r) => r.url.replace(/\/+$/, '') === trimmed) ?? rows.find((r) => /^\d+$/.test(wanted) && r.id === Number(wanted));
  if (!found) {
    const known = rows.map((r) => (r.subdomain === '' ? `'' (${r.url})` : r.subdomain)).join(', ');
    throw new CliError(`--realm: no realm '${wanted}' here (realms: ${known || 'none'})`);
  }
  return found;
}

export async function exportRealm(options: ExportOptions): Promise<RealmArchiveManifest> {
  const { db, out, progress } = options;
  if (!existsSync(dirname(out))) throw new CliError(`--out: the directory ${dirname(out)} does not exist`);
  const staging = mkdtempSync(join(dirname(out), '.teamchat-export-'));
  const partial = join(dirname(out), `.${basename(out)}.${randomBytes(6).toString('hex')}.partial`);
  try {
    const manifest = await db.snapshot(async (tx) => {
      const realm = await findRealmRow(tx, options.realm);
      const counts = await countRows(tx, realm.id);
      progress.start(Object.values(counts).reduce((a, b) => a + b, 0));
      const collected: Collected = { pathIds: [], avatars: [] };
      mkdirSync(join(staging, 'tables'));
      for (const spec of REALM_TABLES) {
        progress.step(spec.table);
        await writeTable(tx, spec.table, `SELECT * FROM ${quote(spec.table)} WHERE ${spec.where} ORDER BY ${spec.orderBy}`, realm, staging, collected, progress);
      }
      progress.step('uploads');
      const uploads = stageFiles(options.uploadsDir, staging, realm, collected);
      const made: RealmArchiveManifest = {
        format: REALM_ARCHIVE_FORMAT,
        format_version: REALM_ARCHIVE_VERSION,
        schema_version: await db.schemaVersion(),
        created_at: new Date().toISOString(),
        source: { realm_id: realm.id, subdomain: realm.subdomain, url: realm.url, name: realm.name, database: db.kind },
        tables: counts,
        uploads,
      };
      return made;
    });
    writeFileSync(join(staging, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    await createTar({ gzip: true, file: partial, cwd: staging, portable: true, follow: true }, [MANIFEST_FILE, 'tables', UPLOADS_DIR]);
    renameSync(partial, out);
    return manifest;
  } finally {
    progress.stop();
    rmSync(partial, { force: true });
    rmSync(staging, { recursive: true, force: true });
  }
}

/** What the rows name that lives in the blob store. */
interface Collected {
  pathIds: string[];
  avatars: { userId: number; avatarVersion: number }[];
}

async function countRows(tx: Queryable, realmId: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const spec of REALM_TABLES) {
    const [{ n }] = (await tx.all(`SELECT count(*) AS n FROM ${quote(spec.table)} WHERE ${spec.where}`, [realmId])) as [{ n: number }];
    counts[spec.table] = Number(n);
  }
  return counts;
}

async function writeTable(
  tx: Queryable,
  table: string,
  query: string,
  realm: RealmSummary,
  staging: string,
  collected: Collected,
  progress: StepProgress,
): Promise<void> {
  const file = createWriteStream(join(staging, tableFile(table)), { flags: 'wx' });
  try {
    for await (const page of tx.pages(query, [realm.id], PAGE)) {
      let chunk = '';
      for (const row of page) {
        chunk += `${encodeRow(row)}\n`;
        collect(table, row, collected);
      }
      // Backpressure: a page at a time in memory, however large the table.
      if (!file.write(chunk)) await once(file, 'drain');
      progress.advance(page.length);
    }
  } finally {
    file.end();
    await once(file, 'close');
  }
}

function collect(table: string, row: Row, collected: Collected): void {
  if (table === 'attachment') collected.pathIds.push(row.path_id as string);
  if (table === 'user' && row.avatar_source === 'U') collected.avatars.push({ userId: Number(row.id), avatarVersion: Number(row.avatar_version) });
}

/**
 * Links the realm's files into the staging directory (archived through the links, so nothing is
 * copied twice on disk): attachments under their `path_id`, avatars by user ID (their blob
 * names derive from the realm's UUID and the user's ID, which an import changes).
 */
function stageFiles(uploadsDir: string, staging: string, realm: RealmSummary, collected: Collected): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  const link = (key: string, archivePath: string) => {
    const source = join(uploadsDir, ...key.split('/'));
    if (!existsSync(source)) return;
    const target = join(staging, UPLOADS_DIR, ...archivePath.split('/'));
    mkdirSync(dirname(target), { recursive: true });
    symlinkSync(source, target);
    files += 1;
    bytes += statSync(source).size;
  };
  mkdirSync(join(staging, UPLOADS_DIR));
  for (const pathId of collected.pathIds) link(pathId, `attachments/${pathId}`);
  for (const { userId, avatarVersion } of collected.avatars) {
    for (const medium of [false, true]) {
      link(avatarBlobKey(realm.id, uploadedAvatarFile(realm, { id: userId, avatarVersion }, medium)), avatarArchivePath(userId, medium));
    }
  }
  return { files, bytes };
}
