import type {
  DefaultStreamStore,
  NewStream,
  Stream,
  StreamPatch,
  StreamStore,
  Subscription,
  SubscriptionStore,
} from '../channel-types.js';
import { insertSql, type TableMap, toRow, updateSql } from './columns.js';
import type { Statements } from './statements.js';

const STREAM: TableMap<Stream> = {
  table: 'stream',
  booleans: ['inviteOnly', 'isWebPublic', 'historyPublicToSubscribers', 'isArchived', 'isRecentlyActive', 'defaultPushNotifications'],
  json: ['groupSettings'],
};
/** Every column but `name_key`, which only the unique index and name lookups use. */
const STREAM_COLUMNS = [
  'id', 'realm_id', 'name', 'description', 'rendered_description', 'date_created', 'creator_id', 'invite_only',
  'is_web_public', 'history_public_to_subscribers', 'is_archived', 'message_retention_days', 'first_message_id',
  'topics_policy', 'is_recently_active', 'folder_id', 'default_push_notifications', 'group_settings',
].join(', ');
const SUBSCRIPTION: TableMap<Subscription> = {
  table: 'subscription',
  booleans: [
    'active', 'isMuted', 'pinToTop', 'desktopNotifications', 'audibleNotifications', 'pushNotifications',
    'emailNotifications', 'wildcardMentionsNotify',
  ],
};
const PAIR: TableMap<{ streamId: number; userId: number }> = { table: 'subscription', booleans: [] };
const ID: TableMap<{ id: number }> = { table: 'stream', booleans: [] };
const TOKEN: TableMap<{ token: number }> = { table: 'channel_state', booleans: [] };

/** The folded name the unique index compares. */
const nameKey = (name: string) => name.toLowerCase();

/** A patch without the row's identity (a JavaScript caller could pass it). */
function patchRow(patch: Record<string, unknown>, identity: readonly string[]): Record<string, unknown> {
  const rest = { ...patch };
  for (const key of identity) delete rest[key];
  return toRow(rest);
}

const ACTIVE_SUBSCRIBERS = `
  SELECT s.stream_id AS stream_id, s.user_id AS user_id FROM subscription s JOIN user u ON u.id = s.user_id
  WHERE s.realm_id = ? AND s.stream_id = ? AND s.active = 1 AND u.is_active = 1 ORDER BY s.user_id`;

/** The channel store over a connection's statements. */
export function streamStore(q: Statements): StreamStore {
  return {
    async insert(stream: NewStream) {
      const { id: _id, ...fields } = stream as NewStream & { id?: unknown };
      const row = toRow({ ...fields, nameKey: nameKey(fields.name) });
      const { lastInsertRowid } = await q.run(insertSql('stream', row), row);
      return { ...fields, id: Number(lastInsertRowid) };
    },
    async byId(realmId, id) {
      return await q.get(STREAM, `SELECT ${STREAM_COLUMNS} FROM stream WHERE realm_id = ? AND id = ?`, realmId, id);
    },
    async byName(realmId, name) {
      return await q.get(STREAM, `SELECT ${STREAM_COLUMNS} FROM stream WHERE realm_id = ? AND name_key = ?`, realmId, nameKey(name));
    },
    async stateToken() {
      return (await q.get(TOKEN, 'SELECT token FROM channel_state WHERE id = 1'))!.token;
    },
    async list(realmId, ids) {
      if (ids === undefined) return await q.all(STREAM, `SELECT ${STREAM_COLUMNS} FROM stream WHERE realm_id = ? ORDER BY id`, realmId);
      if (ids.length === 0) return [];
      return await q.all(
        STREAM,
        `SELECT ${STREAM_COLUMNS} FROM stream WHERE realm_id = ? AND id IN (SELECT value FROM json_each(?)) ORDER BY id`,
        realmId,
        JSON.stringify(ids),
      );
    },
    async update(realmId, id, patch: StreamPatch) {
      const fields = patch.name === undefined ? patch : { ...patch, nameKey: nameKey(patch.name) };
      const row = patchRow(fields, ['id', 'realmId']);
      if (Object.keys(row).length === 0) return;
      await q.run(updateSql('stream', row, 'realm_id = @_realm AND id = @_id'), { ...row, _realm: realmId, _id: id });
    },
  };
}

/** The subscription store over a connection's statements. */
export function subscriptionStore(q: Statements): SubscriptionStore {
  const subscribers = async (realmId: number, streamId: number) =>
    (await q.all(PAIR, ACTIVE_SUBSCRIBERS, realmId, streamId)).map((pair) => pair.userId);
  return {
    async get(realmId, userId, streamId) {
      return await q.get(
        SUBSCRIPTION,
        'SELECT * FROM subscription WHERE realm_id = ? AND user_id = ? AND stream_id = ?',
        realmId,
        userId,
        streamId,
      );
    },
    async activeSubscriberIds(realmId, streamId) {
      return subscribers(realmId, streamId);
    },
    async subscribersByStream(realmId, streamIds) {
      const ids = streamIds ?? (await q.all(ID, 'SELECT DISTINCT stream_id AS id FROM subscription WHERE realm_id = ? AND active = 1', realmId)).map((r) => r.id);
      const out = new Map<number, number[]>();
      // One indexed range per channel: cheaper than one scan joined over every channel's rows.
      for (const id of [...ids].sort((a, b) => a - b)) out.set(id, await subscribers(realmId, id));
      if (streamIds === undefined) for (const [id, users] of out) if (users.length === 0) out.delete(id);
      return out;
    },
    async forUser(realmId, userId) {
      return await q.all(SUBSCRIPTION, 'SELECT * FROM subscription WHERE realm_id = ? AND user_id = ? ORDER BY stream_id', realmId, userId);
    },
    async upsert(subscription: Subscription) {
      const row = toRow({ ...subscription });
      const sets = Object.keys(row)
        .filter((c) => c !== 'user_id' && c !== 'stream_id')
        .map((c) => `${c} = excluded.${c}`);
      await q.run(`${insertSql('subscription', row)} ON CONFLICT (user_id, stream_id) DO UPDATE SET ${sets.join(', ')}`, row);
    },
    async update(realmId, userId, streamId, patch) {
      const row = patchRow(patch, ['realmId', 'userId', 'streamId']);
      if (Object.keys(row).length === 0) return;
      await q.run(updateSql('subscription', row, 'realm_id = @_realm AND user_id = @_user AND stream_id = @_stream'), {
        ...row,
        _realm: realmId,
        _user: userId,
        _stream: streamId,
      });
    },
  };
}

/** The default-channel store over a connection's statements. */
export function defaultStreamStore(q: Statements): DefaultStreamStore {
  return {
    async list(realmId) {
      return (await q.all(ID, 'SELECT stream_id AS id FROM default_stream WHERE realm_id = ? ORDER BY stream_id', realmId)).map((r) => r.id);
    },
    async add(realmId, streamId) {
      await q.run('INSERT OR IGNORE INTO default_stream (realm_id, stream_id) VALUES (?, ?)', realmId, streamId);
    },
    async remove(realmId, streamId) {
      await q.run('DELETE FROM default_stream WHERE realm_id = ? AND stream_id = ?', realmId, streamId);
    },
  };
}
