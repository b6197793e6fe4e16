import type { NewRealmEmoji, RealmEmoji, RealmEmojiStore } from '../emoji-types.js';
import { insertSql, type TableMap, toRow } from './columns.js';
import type { Statements } from './statements.js';

const EMOJI: TableMap<RealmEmoji> = { table: 'realm_emoji', booleans: ['deactivated'] };
const IMAGE: TableMap<{ contentType: string; bytes: Uint8Array }> = { table: 'realm_emoji_image', booleans: [] };
const COLUMNS = 'id, realm_id, name, author_id, deactivated, content_type';

/** The custom emoji store over a connection's statements. */
export function realmEmojiStore(q: Statements): RealmEmojiStore {
  return {
    async insert(emoji: NewRealmEmoji, image) {
      const { id: _id, ...fields } = emoji as NewRealmEmoji & { id?: unknown };
      const row = toRow(fields);
      const id = Number((await q.run(insertSql('realm_emoji', row), row)).lastInsertRowid);
      await q.run('INSERT INTO realm_emoji_image (emoji_id, bytes) VALUES (?, ?)', id, Buffer.from(image));
      return { ...fields, id };
    },
    async list(realmId) {
      return await q.all(EMOJI, `SELECT ${COLUMNS} FROM realm_emoji WHERE realm_id = ? ORDER BY id`, realmId);
    },
    async byId(realmId, id) {
      return await q.get(EMOJI, `SELECT ${COLUMNS} FROM realm_emoji WHERE realm_id = ? AND id = ?`, realmId, id);
    },
    async deactivate(realmId, id) {
      const { changes } = await q.run('UPDATE realm_emoji SET deactivated = 1 WHERE realm_id = ? AND id = ? AND deactivated = 0', realmId, id);
      return changes > 0;
    },
    async image(realmId, id) {
      const found = await q.get(
        IMAGE,
        `SELECT e.content_type AS content_type, i.bytes AS bytes FROM realm_emoji e JOIN realm_emoji_image i ON i.emoji_id = e.id
         WHERE e.realm_id = ? AND e.id = ?`,
        realmId,
        id,
      );
      // better-sqlite3 gives a Buffer: hand out a plain Uint8Array view, as the contract says.
      return found && { contentType: found.contentType, bytes: new Uint8Array(found.bytes.buffer, found.bytes.byteOffset, found.bytes.byteLength) };
    },
  };
}
