/**
 * Loads a RealmDump (a teamchat archive or a converted Zulip export) into an installation as a
 * new realm. Two passes over the rows: the first counts them against the source's counts and
 * collects every ID; the second, in one transaction that excludes the server's writers, gives
 * each row a new ID above everything the installation ever handed out, rewrites every reference
 * (columns, JSON, conversation keys, message content), inserts, and stores the files. Anything
 * failing rolls the transaction back and removes the files already stored: a failed import leaves
 * no trace.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { avatarBlobKey, uploadedAvatarFile } from '@teamchat/core/internal';
import { CliError } from '../data-dir.js';
import type { RealmDump } from './archive-files.js';
import { type DatabaseHandle, type Queryable, quote, type Row } from './database-handle.js';
import { IdMaps, remapPathId } from './id-maps.js';
import type { StepProgress } from './progress.js';
import { REALM_TABLES, type RealmTable, type RewriteState } from './realm-tables.js';

export interface ImportOptions {
  db: DatabaseHandle;
  uploadsDir: string;
  dump: RealmDump;
  /** The new realm's subdomain and URL; the source's when absent. */
  subdomain?: string;
  url?: string;
  progress: StepProgress;
}

export interface ImportReport {
  realmId: number;
  subdomain: string;
  url: string;
  /** Rows written per table. */
  tables: Record<string, number>;
  files: number;
}

/** What the first pass learns. */
interface Survey {
  ids: Map<string, number[]>;
  realm: Row;
  avatarVersions: Map<number, number>;
}

export async function importRealm(options: ImportOptions): Promise<ImportReport> {
  const { db, dump, progress } = options;
  const survey = await surveyDump(dump);
  const subdomain = options.subdomain ?? String(survey.realm.subdomain);
  const url = (options.url ?? String(survey.realm.url)).replace(/\/+$/, '');
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$|^$/.test(subdomain)) throw new CliError(`--subdomain: '${subdomain}' is not a valid subdomain (lower-case letters, digits and dashes)`);
  if (!/^https?:\/\/[^/\s]+$/.test(url)) throw new CliError(`--url: '${url}' is not an http(s) URL of a host`);
  await refuseTakenRealm(db, subdomain, url);

  const stored: string[] = [];
  const total = Object.values(dump.counts).reduce((a, b) => a + b, 0) + dump.files.length;
  progress.start(total);
  try {
    const report = await db.exclusive(async (tx) => {
      // Again inside the lock: a realm created since the first check is seen now.
      await refuseTakenRealm(tx, subdomain, url);
      const maps = new IdMaps();
      for (const spec of REALM_TABLES) {
        if (spec.id) maps.assign(spec.id, survey.ids.get(spec.table) ?? [], await tx.idFloor(spec.table));
      }
      maps.oldRealmId = Number(survey.realm.id);
      maps.newRealmId = maps.id('realm', maps.oldRealmId, 'realm');
      const state: RewriteState = { maps, userListFields: new Set() };
      const uuid = randomUUID();
      const tables: Record<string, number> = {};
      for (const spec of REALM_TABLES) {
        progress.step(spec.table);
        const targetColumns = new Set(await db.columns(spec.table));
        let written = 0;
        for await (const page of dump.rows(spec.table)) {
          const rows = page.map((row) => remapRow(spec, row, state));
          if (spec.table === 'realm') for (const row of rows) Object.assign(row, { subdomain, url, uuid });
          if (spec.table === 'user') await replaceTakenApiKeys(tx, rows);
          const columns = Object.keys(rows[0]!).filter((column) => targetColumns.has(column));
          await tx.insert(spec.table, columns, rows.map((row) => columns.map((column) => row[column] ?? null)));
          // The full-text index of the new messages (SQLite's is contentless, PostgreSQL's a table).
          if (spec.table === 'message') await tx.insert('message_fts', ['rowid', 'content', 'topic'], rows.map((row) => [row.id, row.content, row.topic]));
          written += rows.length;
          progress.advance(rows.length);
        }
        tables[spec.table] = written;
        if (spec.id) await tx.raiseIdGenerator(spec.table);
      }
      // The channel list cache of running servers is keyed by this token: any change invalidates it.
      await tx.run('UPDATE channel_state SET token = token + 1').catch(() => undefined);
      progress.step('uploads');
      const files = storeFiles(options, maps, uuid, survey.avatarVersions, stored, progress);
      return { realmId: maps.newRealmId, subdomain, url, tables, files };
    });
    return report;
  } catch (error) {
    for (const path of stored) rmSync(path, { recursive: true, force: true });
    throw error;
  } finally {
    progress.stop();
  }
}

/** The first pass: row counts against the source's, every table's IDs, the realm row, avatar versions. */
async function surveyDump(dump: RealmDump): Promise<Survey> {
  const ids = new Map<string, number[]>();
  const avatarVersions = new Map<number, number>();
  let realm: Row | undefined;
  for (const spec of REALM_TABLES) {
    let count = 0;
    const tableIds: number[] = [];
    for await (const page of dump.rows(spec.table)) {
      count += page.length;
      for (const row of page) {
        if (spec.id) {
          const id = Number(row.id);
          if (!Number.isSafeInteger(id) || id < 1) throw new CliError(`--archive: ${spec.table} has a row without a valid id`);
          tableIds.push(id);
        }
        if (spec.table === 'realm') realm = row;
        if (spec.table === 'user') avatarVersions.set(Number(row.id), Number(row.avatar_version ?? 1));
      }
    }
    const expected = dump.counts[spec.table] ?? 0;
    if (count !== expected) throw new CliError(`--archive: ${spec.table} has ${count} rows, the manifest says ${expected}; the archive is damaged`);
    if (spec.id) {
      tableIds.sort((a, b) => a - b);
      if (tableIds.some((id, i) => i > 0 && tableIds[i - 1] === id)) throw new CliError(`--archive: ${spec.table} holds an id twice`);
      ids.set(spec.table, tableIds);
    }
  }
  if (!realm) throw new CliError('--archive: the archive holds no realm');
  return { ids, realm, avatarVersions };
}

async function refuseTakenRealm(db: Queryable, subdomain: string, url: string): Promise<void> {
  const taken = (await db.all('SELECT subdomain, url FROM realm WHERE subdomain = ? OR url = ?', [subdomain, url])) as { subdomain: string; url: string }[];
  if (taken.length === 0) return;
  const which = taken[0]!.subdomain === subdomain ? `the subdomain '${subdomain}'` : `the URL ${url}`;
  throw new CliError(`this installation already has a realm with ${which}; choose another with --subdomain and --url`);
}

/** A row in the target's numbering. */
function remapRow(spec: RealmTable, source: Row, state: RewriteState): Row {
  const row = { ...source };
  const { maps } = state;
  const where = `${spec.table} ${source.id ?? ''}`.trim();
  if ('realm_id' in row) {
    if (Number(row.realm_id) !== maps.oldRealmId) throw new CliError(`--archive: ${where} belongs to another realm (${row.realm_id})`);
    row.realm_id = maps.newRealmId;
  }
  // Rewrites read the old IDs (a field's type is recorded by its old ID), so they run first.
  spec.rewrite?.(row, state);
  if (spec.id) row.id = maps.id(spec.id, Number(source.id), where);
  for (const [column, kind] of Object.entries(spec.refs ?? {})) row[column] = maps.id(kind, Number(source[column]), where);
  for (const [column, kind] of Object.entries(spec.optionalRefs ?? {})) row[column] = maps.optional(kind, source[column]);
  return row;
}

/** API keys are unique across the installation: a user whose key is taken here gets a new one. */
async function replaceTakenApiKeys(tx: Queryable, rows: Row[]): Promise<void> {
  const keys = rows.map((row) => String(row.api_key));
  const taken = new Set(
    ((await tx.all(`SELECT api_key FROM ${quote('user')} WHERE api_key IN (${keys.map(() => '?').join(', ')})`, keys)) as { api_key: string }[]).map((r) => r.api_key),
  );
  for (const row of rows) if (taken.has(String(row.api_key))) row.api_key = newApiKey();
}

const API_KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const newApiKey = () => [...randomBytes(32)].map((b) => API_KEY_ALPHABET[b % API_KEY_ALPHABET.length]).join('');

/** Copies the files under their new keys; each path (and each directory made) is recorded first so that a failure can remove it. */
function storeFiles(options: ImportOptions, maps: IdMaps, uuid: string, avatarVersions: Map<number, number>, written: string[], progress: StepProgress): number {
  for (const file of options.dump.files) {
    let key: string;
    if (file.kind === 'attachment') key = remapPathId(maps, file.pathId);
    else {
      const userId = maps.id('user', file.userId, 'an avatar');
      key = avatarBlobKey(maps.newRealmId, uploadedAvatarFile({ uuid }, { id: userId, avatarVersion: avatarVersions.get(file.userId) ?? 1 }, file.medium));
    }
    const target = join(options.uploadsDir, ...key.split('/'));
    // The first directory this made (if any) is removed with the files on failure: it holds only ours.
    const made = mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
    if (made) written.push(made);
    written.push(target);
    copyFileSync(file.source, target);
    progress.advance(1);
  }
  return options.dump.files.length;
}
