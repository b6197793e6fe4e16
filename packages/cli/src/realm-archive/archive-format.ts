/**
 * The organisation archive (`teamchat export`): a gzipped tar holding
 *
 *   manifest.json            format, versions, source, time, rows per table, uploaded files
 *   tables/<table>.ndjson    the realm's rows of each table, one JSON object per line
 *   uploads/<key>            the realm's files under their blob-store keys (attachments, avatars)
 *
 * One line per row lets both sides stream a table of any size. Byte columns (custom emoji
 * images) are written as {"$base64": "…"}.
 */
import { MIGRATIONS } from '@teamchat/core/internal';
import { CliError } from '../data-dir.js';
import type { Row } from './database-handle.js';
import { REALM_TABLE_NAMES } from './realm-tables.js';

export const MANIFEST_FILE = 'manifest.json';
export const REALM_ARCHIVE_FORMAT = 'teamchat-realm-export';
/** Raised when the layout or the meaning of a field changes; an import refuses other versions. */
export const REALM_ARCHIVE_VERSION = 1;
export const LATEST_SCHEMA_VERSION = MIGRATIONS.length;

export interface RealmArchiveManifest {
  format: typeof REALM_ARCHIVE_FORMAT;
  format_version: number;
  /** The source database's schema version (migrations applied). */
  schema_version: number;
  created_at: string;
  source: { realm_id: number; subdomain: string; url: string; name: string; database: 'sqlite' | 'postgres' };
  /** Rows of each table in the archive. */
  tables: Record<string, number>;
  uploads: { files: number; bytes: number };
}

export const tableFile = (table: string) => `tables/${table}.ndjson`;

/** One row as a line. */
export function encodeRow(row: Row): string {
  return JSON.stringify(row, (_, value: unknown) => {
    if (value instanceof Uint8Array) return { $base64: Buffer.from(value).toString('base64') };
    // JSON.stringify turns a Buffer into {type, data} before the replacer sees it.
    if (value && typeof value === 'object' && (value as { type?: unknown }).type === 'Buffer' && Array.isArray((value as { data?: unknown }).data)) {
      return { $base64: Buffer.from((value as { data: number[] }).data).toString('base64') };
    }
    return value;
  });
}

export function decodeRow(line: string, where: string): Row {
  let row: unknown;
  try {
    row = JSON.parse(line, (_, value: unknown) =>
      value && typeof value === 'object' && typeof (value as { $base64?: unknown }).$base64 === 'string'
        ? Buffer.from((value as { $base64: string }).$base64, 'base64')
        : value,
    );
  } catch {
    throw new CliError(`--archive: ${where} is not valid JSON`);
  }
  if (!row || typeof row !== 'object' || Array.isArray(row)) throw new CliError(`--archive: ${where} is not a row`);
  return row as Row;
}

/** The manifest, checked against what this build can import. */
export function parseRealmManifest(text: string): RealmArchiveManifest {
  let manifest: Partial<RealmArchiveManifest>;
  try {
    manifest = JSON.parse(text) as Partial<RealmArchiveManifest>;
  } catch {
    throw new CliError(`--archive: ${MANIFEST_FILE} is not valid JSON`);
  }
  if (manifest?.format !== REALM_ARCHIVE_FORMAT) {
    throw new CliError(`--archive: not a teamchat organisation export (the manifest's format is ${JSON.stringify(manifest?.format ?? null)}, expected ${REALM_ARCHIVE_FORMAT})`);
  }
  if (manifest.format_version !== REALM_ARCHIVE_VERSION) {
    throw new CliError(`--archive: export format version ${manifest.format_version}, this teamchat imports version ${REALM_ARCHIVE_VERSION}`);
  }
  const schema = manifest.schema_version;
  if (!Number.isInteger(schema) || schema! < 1) throw new CliError('--archive: the manifest has no valid schema_version');
  if (schema! > LATEST_SCHEMA_VERSION) {
    throw new CliError(`--archive: the export's schema version ${schema} is newer than this teamchat's ${LATEST_SCHEMA_VERSION}; upgrade teamchat first`);
  }
  const tables = manifest.tables;
  if (typeof tables !== 'object' || tables === null) throw new CliError('--archive: the manifest has no table counts');
  const unknown = Object.keys(tables).filter((table) => !REALM_TABLE_NAMES.includes(table));
  if (unknown.length > 0) throw new CliError(`--archive: the manifest names tables this teamchat does not know: ${unknown.join(', ')}`);
  if (tables.realm !== 1) throw new CliError('--archive: the manifest does not hold exactly one realm');
  if (!manifest.source || typeof manifest.source.subdomain !== 'string' || typeof manifest.source.url !== 'string') {
    throw new CliError('--archive: the manifest has no source realm');
  }
  return manifest as RealmArchiveManifest;
}
