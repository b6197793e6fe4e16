import type {
  NewMail, NewRealm, NewUser, OutboxStore, OutgoingMail, Realm, RealmStore, User, UserPatch, UserStore,
} from '../types.js';
import { insertSql, type TableMap, toRow, updateSql } from './columns.js';
import type { Statements } from './statements.js';

const REALM: TableMap<Realm> = {
  table: 'realm',
  booleans: ['deactivated', 'webPublicAccessEnabled', 'emailAuthEnabled'],
  json: ['settings', 'userSettingsDefaults'],
};
const USER: TableMap<User> = {
  table: 'user',
  booleans: ['isActive', 'isBot', 'isImportedStub', 'awaitingFirstLogin', 'canCreateUsers', 'canChangeUserEmails'],
  optionalBooleans: ['isSystemBot'],
  json: ['settings'],
  packed: true,
};
/** The column is `to_address` because `to` reads badly in SQL. */
const MAIL: TableMap<OutgoingMail> = { table: 'outbox', booleans: [], renamed: { to_address: 'to' } };
const ROLE: TableMap<Pick<User, 'id' | 'role' | 'isActive'>> = { table: 'user', booleans: ['isActive'] };
const COUNT: TableMap<{ n: number }> = { table: 'user', booleans: [] };
const TOKEN: TableMap<{ token: number }> = { table: 'user_state', booleans: [] };

/** Drops keys a patch must never carry (a JavaScript caller could pass them): the row's identity. */
function patchRow(patch: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, realmId: _realmId, ...rest } = patch;
  return toRow(rest);
}

/** The realm store over a connection's statements. */
export function realmStore(q: Statements): RealmStore {
  return {
    async insert(realm: NewRealm) {
      const row = patchRow({ ...realm });
      const { lastInsertRowid } = await q.run(insertSql('realm', row), row);
      return { settings: {}, userSettingsDefaults: {}, ...realm, id: Number(lastInsertRowid) };
    },
    async byId(id) {
      return await q.get(REALM, 'SELECT * FROM realm WHERE id = ?', id);
    },
    async bySubdomain(subdomain) {
      return await q.get(REALM, 'SELECT * FROM realm WHERE subdomain = ?', subdomain);
    },
    async all() {
      return await q.all(REALM, 'SELECT * FROM realm ORDER BY id');
    },
    async update(id, patch) {
      const row = patchRow(patch);
      if (Object.keys(row).length === 0) return;
      await q.run(updateSql('realm', row, 'id = @_id'), { ...row, _id: id });
    },
  };
}

/** The user store over a connection's statements. */
export function userStore(q: Statements): UserStore {
  return {
    async insert(user: NewUser) {
      const { id: _id, ...rest } = user as NewUser & { id?: unknown };
      const fields = { ...rest, settings: rest.settings ?? {} };
      const row = toRow(fields);
      const { lastInsertRowid } = await q.run(insertSql('user', row), row);
      return { ...fields, id: Number(lastInsertRowid) };
    },
    async byId(realmId, id) {
      return await q.get(USER, 'SELECT * FROM user WHERE realm_id = ? AND id = ?', realmId, id);
    },
    async byDeliveryEmail(realmId, email) {
      return await q.get(USER, 'SELECT * FROM user WHERE realm_id = ? AND delivery_email = ? COLLATE NOCASE', realmId, email);
    },
    async byApiKey(apiKey) {
      return await q.get(USER, 'SELECT * FROM user WHERE api_key = ?', apiKey);
    },
    async list(realmId, ids) {
      if (ids === undefined) return await q.all(USER, 'SELECT * FROM user WHERE realm_id = ? ORDER BY id', realmId);
      if (ids.length === 0) return [];
      return await q.all(
        USER,
        // `+realm_id`: looked up by ID; otherwise SQLite walks the realm's every user (user_bot_owner).
        'SELECT * FROM user WHERE id IN (SELECT value FROM json_each(?)) AND +realm_id = ? ORDER BY id',
        JSON.stringify(ids),
        realmId,
      );
    },
    async stateToken() {
      return (await q.get(TOKEN, 'SELECT token FROM user_state WHERE id = 1'))!.token;
    },
    async roles(realmId) {
      return await q.all(ROLE, 'SELECT id, role, is_active FROM user WHERE realm_id = ? ORDER BY id', realmId);
    },
    async botsOwnedBy(realmId, ownerId) {
      return await q.all(USER, 'SELECT * FROM user WHERE realm_id = ? AND bot_owner_id = ? AND is_bot = 1 ORDER BY id', realmId, ownerId);
    },
    async countActiveHumanOwners(realmId) {
      const row = await q.get(
        COUNT,
        'SELECT count(*) AS n FROM user WHERE realm_id = ? AND role = 100 AND is_active = 1 AND is_bot = 0',
        realmId,
      );
      return row?.n ?? 0;
    },
    async update(realmId, id, patch: UserPatch) {
      const row = patchRow(patch);
      if (Object.keys(row).length === 0) return;
      await q.run(updateSql('user', row, 'realm_id = @_realm AND id = @_id'), { ...row, _realm: realmId, _id: id });
    },
  };
}

/** The outbox store over a connection's statements. */
export function outboxStore(q: Statements): OutboxStore {
  return {
    async insert(mail: NewMail) {
      const row = toRow({ realmId: mail.realmId, toAddress: mail.to, subject: mail.subject, body: mail.body, createdAt: mail.createdAt });
      const { lastInsertRowid } = await q.run(insertSql('outbox', row), row);
      return { ...mail, id: Number(lastInsertRowid), sentAt: null };
    },
    async pending(limit = 100) {
      return await q.all(MAIL, 'SELECT * FROM outbox WHERE sent_at IS NULL ORDER BY id LIMIT ?', limit);
    },
    async list(realmId) {
      return await q.all(MAIL, 'SELECT * FROM outbox WHERE realm_id = ? ORDER BY id', realmId);
    },
    async markSent(id, at) {
      await q.run('UPDATE outbox SET sent_at = ? WHERE id = ?', at, id);
    },
  };
}
