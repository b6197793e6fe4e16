/**
 * The backup archive: a gzipped tar holding `manifest.json`, the database copy `teamchat.db`,
 * the owner's `zuliprc` when the data directory has one, and the `uploads/` tree. The manifest
 * says what the archive should hold, so a restore can check the copy before using it.
 */
import type Database from 'better-sqlite3';
import { MIGRATIONS } from '@teamchat/core/internal';
import { CliError } from '../data-dir.js';

export const MANIFEST_FILE = 'manifest.json';
export const ARCHIVE_FORMAT = 'teamchat-backup';
/** Raised when the archive's layout or the manifest's meaning changes; a restore refuses other versions. */
export const FORMAT_VERSION = 1;
/** The schema version this build's migrations bring a database to. */
export const LATEST_SCHEMA_VERSION = MIGRATIONS.length;

export interface BackupManifest {
  format: typeof ARCHIVE_FORMAT;
  format_version: number;
  /** `PRAGMA user_version` of the copied database: how many migrations it has. */
  schema_version: number;
  created_at: string;
  /** Rows of every table of the copy, by table name. */
  tables: Record<string, number>;
  uploads: { files: number; bytes: number };
}

/** Entries a restore accepts: nothing else (no links, no other paths) is written into a data directory. */
export function isArchiveEntry(path: string): boolean {
  const clean = path.replace(/^\.\//, '').replace(/\/$/, '');
  return clean === MANIFEST_FILE || clean === 'teamchat.db' || clean === 'zuliprc' || clean === 'uploads' || clean.startsWith('uploads/');
}

/** Row counts of every table (virtual full-text tables and their shadow tables included). */
export function countRows(db: Database.Database): Record<string, number> {
  const tables = db
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all() as string[];
  const counts: Record<string, number> = {};
  for (const table of tables) counts[table] = db.prepare(`SELECT count(*) FROM "${table.replaceAll('"', '""')}"`).pluck().get() as number;
  return counts;
}

/** The manifest of an extracted archive, checked against what this build can restore. */
export function parseManifest(text: string): BackupManifest {
  let manifest: Partial<BackupManifest>;
  try {
    manifest = JSON.parse(text) as Partial<BackupManifest>;
  } catch {
    throw new CliError(`--archive: ${MANIFEST_FILE} is not valid JSON`);
  }
  if (manifest.format !== ARCHIVE_FORMAT) throw new CliError('--archive: not a teamchat backup (its manifest names another format)');
  if (manifest.format_version !== FORMAT_VERSION) {
    throw new CliError(`--archive: backup format version ${manifest.format_version}, this teamchat restores version ${FORMAT_VERSION}`);
  }
  const schema = manifest.schema_version;
  if (!Number.isInteger(schema) || schema! < 1) throw new CliError('--archive: the manifest has no valid schema_version');
  if (schema! > LATEST_SCHEMA_VERSION) {
    throw new CliError(`--archive: the backup's schema version ${schema} is newer than this teamchat's ${LATEST_SCHEMA_VERSION}; upgrade teamchat first`);
  }
  if (typeof manifest.tables !== 'object' || manifest.tables === null) throw new CliError('--archive: the manifest has no table counts');
  return manifest as BackupManifest;
}
