/**
 * What an import reads, whatever it comes from (a teamchat archive, a Zulip export): each
 * table's rows in the source's numbering, and the files that go into the blob store.
 */
import type { Row } from './database-handle.js';

/** Files sit under this directory of an archive: `attachments/<path_id>`, `avatars/<user_id>[-medium].png`. */
export const UPLOADS_DIR = 'uploads';

export const avatarArchivePath = (userId: number, medium: boolean) => `avatars/${userId}${medium ? '-medium' : ''}.png`;

/** A file to store: an attachment under its (renumbered) `path_id`, or a user's avatar image. */
export type DumpFile =
  | { kind: 'attachment'; pathId: string; source: string }
  | { kind: 'avatar'; userId: number; medium: boolean; source: string };

export interface RealmDump {
  /** Rows each table should have; a table without rows may be left out. */
  readonly counts: Readonly<Record<string, number>>;
  /** A table's rows in pages; may be called more than once (an import reads twice). */
  rows(table: string): AsyncIterable<Row[]>;
  readonly files: readonly DumpFile[];
}
