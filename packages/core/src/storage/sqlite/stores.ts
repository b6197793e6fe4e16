import type Database from 'better-sqlite3';
import type {
  NewMail, NewRealm, NewUser, OutboxStore, OutgoingMail, Realm, RealmStore, User, UserPatch, UserStore,
} from '../types.js';
import { fromRow, insertSql, type TableMap, toRow, updateSql } from './columns.js';

type Row = Record<string, unknown>;

const REALM: TableMap<Realm> = {
  table: 'realm',
  booleans: ['deactivated', 'webPublicAccessEnabled', 'emailAuthEnabled'],
};
const USER: TableMap<User> = {
  table: 'user',
  booleans: ['isActive', 'isBot', 'isImportedStub', 'awaitingFirstLogin', 'canCreateUsers', 'canChangeUserEmails'],
};
const MAIL: TableMap<OutgoingMail> = { table: 'outbox', booleans: [] };

export function realmStore(db: Database.Database): RealmStore {
  const read = (row: unknown) => (row ? fromRow(REALM, row as Row) : undefined);
  return {
    async insert(realm: NewRealm) {
      const row = toRow({ ...realm });
      const { lastInsertRowid } = db.prepare(insertSql('realm', row)).run(row);
      return { ...realm, id: Number(lastInsertRowid) };
    },
    async byId(id) {
      return read(db.prepare('SELECT * FROM realm WHERE id = ?').get(id));
    },
    async bySubdomain(subdomain) {
      return read(db.prepare('SELECT * FROM realm WHERE subdomain = ?').get(subdomain));
    },
    async all() {
      return db.prepare('SELECT * FROM realm ORDER BY id').all().map((r) => fromRow(REALM, r as Row));
    },
    async update(id, patch) {
      const row = toRow(patch);
      if (Object.keys(row).length === 0) return;
      db.prepare(updateSql('realm', row, 'id = @_id')).run({ ...row, _id: id });
    },
  };
}

export function userStore(db: Database.Database): UserStore {
  const read = (row: unknown) => (row ? fromRow(USER, row as Row) : undefined);
  const readAll = (rows: unknown[]) => rows.map((r) => fromRow(USER, r as Row));
  return {
    async insert(user: NewUser) {
      const row = toRow({ ...user });
      const { lastInsertRowid } = db.prepare(insertSql('user', row)).run(row);
      return { ...user, id: Number(lastInsertRowid) };
    },
    async byId(realmId, id) {
      return read(db.prepare('SELECT * FROM user WHERE realm_id = ? AND id = ?').get(realmId, id));
    },
    async byDeliveryEmail(realmId, email) {
      return read(
        db.prepare('SELECT * FROM user WHERE realm_id = ? AND delivery_email = ? COLLATE NOCASE').get(realmId, email),
      );
    },
    async byApiKey(apiKey) {
      return read(db.prepare('SELECT * FROM user WHERE api_key = ?').get(apiKey));
    },
    async list(realmId, ids) {
      if (ids === undefined) return readAll(db.prepare('SELECT * FROM user WHERE realm_id = ? ORDER BY id').all(realmId));
      if (ids.length === 0) return [];
      const rows = db
        .prepare('SELECT * FROM user WHERE realm_id = ? AND id IN (SELECT value FROM json_each(?)) ORDER BY id')
        .all(realmId, JSON.stringify(ids));
      return readAll(rows);
    },
    async botsOwnedBy(realmId, ownerId) {
      return readAll(
        db.prepare('SELECT * FROM user WHERE realm_id = ? AND bot_owner_id = ? AND is_bot = 1 ORDER BY id').all(realmId, ownerId),
      );
    },
    async countActiveHumanOwners(realmId) {
      const row = db
        .prepare('SELECT count(*) AS n FROM user WHERE realm_id = ? AND role = 100 AND is_active = 1 AND is_bot = 0')
        .get(realmId) as { n: number };
      return row.n;
    },
    async update(realmId, id, patch: UserPatch) {
      const row = toRow(patch);
      if (Object.keys(row).length === 0) return;
      db.prepare(updateSql('user', row, 'realm_id = @_realm AND id = @_id')).run({ ...row, _realm: realmId, _id: id });
    },
  };
}

export function outboxStore(db: Database.Database): OutboxStore {
  const readAll = (rows: unknown[]) => rows.map((r) => fromRow(MAIL, r as Row));
  return {
    async insert(mail: NewMail) {
      const row = toRow({ realmId: mail.realmId, toAddress: mail.to, subject: mail.subject, body: mail.body, createdAt: mail.createdAt });
      const { lastInsertRowid } = db.prepare(insertSql('outbox', row)).run(row);
      return { ...mail, id: Number(lastInsertRowid), sentAt: null };
    },
    async pending(limit = 100) {
      return readAll(db.prepare('SELECT * FROM outbox WHERE sent_at IS NULL ORDER BY id LIMIT ?').all(limit)).map(renameTo);
    },
    async list(realmId) {
      return readAll(db.prepare('SELECT * FROM outbox WHERE realm_id = ? ORDER BY id').all(realmId)).map(renameTo);
    },
    async markSent(id, at) {
      db.prepare('UPDATE outbox SET sent_at = ? WHERE id = ?').run(at, id);
    },
  };
}

/** The column is `to_address` because `to` reads badly in SQL. */
function renameTo(mail: OutgoingMail & { toAddress?: string }): OutgoingMail {
  const { toAddress, ...rest } = mail;
  return { ...rest, to: toAddress ?? rest.to };
}
