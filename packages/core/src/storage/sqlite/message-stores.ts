import type {
  Message,
  MessageCondition,
  MessageScope,
  MessageStore,
  MessageWindow,
  MessageWindowResult,
  NewMessage,
  Reaction,
  ReactionStore,
} from '../message-types.js';
import { extend } from '../../objects.js';
import { insertSql, type TableMap, toRow, updateSql } from './columns.js';
import { compileMessageQuery } from './message-query.js';
import type { Statements } from './statements.js';
import { nextIdSql } from './kept-ids.js';

const MESSAGE: TableMap<Message> = {
  table: 'message',
  booleans: ['hasLink', 'hasImage', 'hasAttachment', 'isMeMessage'],
  json: ['editHistory'],
  packed: true,
};
const ID: TableMap<{ id: number }> = { table: 'message', booleans: [] };
/** A window's row with the viewer's flags or the format stamp (WindowRow). */
const WINDOW_ROW: TableMap<WindowRow> = { table: 'message', booleans: [] };
const COPY: TableMap<{ userId: number; flags: number; messageId: number }> = { table: 'user_message', booleans: [], packed: true };
const STAMP: TableMap<{ messageId: number; stamp: number }> = { table: 'message_stamp', booleans: [] };
const REACTION: TableMap<Reaction> = { table: 'reaction', booleans: [] };
const UNREAD: TableMap<Awaited<ReturnType<MessageStore['unread']>>[number]> = { table: 'message', booleans: [] };
const TOPIC: TableMap<{ name: string; maxId: number }> = { table: 'message', booleans: [] };
const KEY: TableMap<{ dmKey: string }> = { table: 'dm_conversation', booleans: [] };
const CONVERSATION: TableMap<{ dmKey: string; id: number }> = { table: 'dm_conversation', booleans: [] };
const RECENT_DM: TableMap<{ dmKey: string; maxMessageId: number }> = { table: 'dm_participant', booleans: [] };
const VALUE: TableMap<{ value: number | null }> = { table: 'message', booleans: [] };

const json = (values: readonly unknown[]) => JSON.stringify(values);

/** The message store over a connection's statements. */
export function messageStore(q: Statements): MessageStore {
  const indexText = async (id: number, content: string, topic: string) =>
    await q.run('INSERT INTO message_fts (rowid, content, topic) VALUES (?, ?, ?)', id, content, topic);

  return {
    async insert(message: NewMessage, recipients) {
      const row = toRow(extend(message, { editHistory: JSON.stringify(message.editHistory) }));
      // The ID is computed inside the INSERT (one statement, one round trip on PostgreSQL, where
      // the write lock makes it as safe as a separate read), and reported back by it.
      const { lastInsertRowid } = await q.run(insertSql('message', row, { id: nextIdSql('message') }), row);
      const id = Number(lastInsertRowid);
      if (message.dmKey !== null) {
        await q.run('INSERT OR IGNORE INTO dm_conversation (realm_id, dm_key) VALUES (?, ?)', message.realmId, message.dmKey);
        const participants = message.dmKey.split(',').map((userId) => [Number(userId), message.realmId, message.dmKey]);
        await q.insertRows('INSERT OR IGNORE INTO dm_participant (user_id, realm_id, dm_key) VALUES (?, ?, ?)', participants);
      }
      // Every copy in one statement (a few on SQLite): on PostgreSQL one statement instead of
      // one per recipient; on SQLite about a third fewer instructions than a statement per
      // copy, for a few more WAL writes (BENCHMARKS.md, after (4)). The copies and the search
      // row go out together (one round trip on PostgreSQL).
      await Promise.all([
        q.insertRows('INSERT INTO user_message (user_id, message_id, flags) VALUES (?, ?, ?)', recipients.map(({ userId, flags }) => [userId, id, flags])),
        indexText(id, message.content, message.topic),
      ]);
      return extend(message, { id });
    },
    async byId(realmId, id) {
      return await q.get(MESSAGE, 'SELECT * FROM message WHERE realm_id = ? AND id = ?', realmId, id);
    },
    async byIds(realmId, ids) {
      if (ids.length === 0) return [];
      return await q.all(
        MESSAGE,
        'SELECT * FROM message WHERE realm_id = ? AND id IN (SELECT value FROM json_each(?)) ORDER BY id',
        realmId,
        json(ids),
      );
    },
    async update(realmId, id, patch) {
      const fields: Record<string, unknown> = { ...patch };
      if (patch.editHistory) fields.editHistory = JSON.stringify(patch.editHistory);
      const row = toRow(fields);
      if (Object.keys(row).length === 0) return;
      await q.run(updateSql('message', row, 'realm_id = @_realm AND id = @_id'), { ...row, _realm: realmId, _id: id });
      if (patch.content !== undefined || patch.topic !== undefined) {
        const current = await q.get(MESSAGE, 'SELECT * FROM message WHERE realm_id = ? AND id = ?', realmId, id);
        await q.run('DELETE FROM message_fts WHERE rowid = ?', id);
        if (current) await indexText(id, current.content, current.topic);
      }
    },
    async delete(realmId, ids) {
      for (const id of ids) {
        const { changes } = await q.run('DELETE FROM message WHERE realm_id = ? AND id = ?', realmId, id);
        if (changes > 0) await q.run('DELETE FROM message_fts WHERE rowid = ?', id);
      }
    },
    async recipients(messageId) {
      return await q.all(COPY, 'SELECT user_id, flags FROM user_message WHERE message_id = ? ORDER BY user_id', messageId);
    },
    async flagsOf(userId, messageIds) {
      const rows = await q.all(
        COPY,
        'SELECT message_id, flags FROM user_message WHERE user_id = ? AND message_id IN (SELECT value FROM json_each(?))',
        userId,
        json(messageIds),
      );
      return new Map(rows.map((row) => [row.messageId, row.flags]));
    },
    async formatStamps(messageIds) {
      if (messageIds.length === 0) return new Map();
      const rows = await q.all(STAMP, 'SELECT message_id, stamp FROM message_stamp WHERE message_id IN (SELECT value FROM json_each(?))', json(messageIds));
      // Number(): PostgreSQL's BIGINT may arrive as text.
      return new Map(rows.map((row) => [Number(row.messageId), Number(row.stamp)]));
    },
    async addRecipients(messageId, recipients) {
      await q.insertRows(
        'INSERT OR IGNORE INTO user_message (user_id, message_id, flags) VALUES (?, ?, ?)',
        recipients.map(({ userId, flags }) => [userId, messageId, flags]),
      );
    },
    async removeRecipients(messageId, userIds) {
      if (userIds.length === 0) return;
      await q.run('DELETE FROM user_message WHERE message_id = ? AND user_id IN (SELECT value FROM json_each(?))', messageId, json(userIds));
    },
    async idsSentBefore(realmId, streamId, before, limit) {
      return (await q.all(ID, 'SELECT id FROM message WHERE stream_id = ? AND realm_id = ? AND date_sent < ? ORDER BY id LIMIT ?', streamId, realmId, before, limit))
        .map((row) => row.id);
    },
    async idsBySender(realmId, senderId) {
      return (await q.all(ID, 'SELECT id FROM message WHERE sender_id = ? AND realm_id = ? ORDER BY id', senderId, realmId)).map((row) => row.id);
    },
    async setFlags(userId, messageIds, mask, on) {
      if (messageIds.length === 0) return [];
      const test = on ? `(flags & ${mask}) <> ${mask}` : `(flags & ${mask}) <> 0`;
      const set = on ? `flags | ${mask}` : `flags & ~${mask}`;
      const changed = await q.all(
        { table: 'user_message', booleans: [] } as TableMap<{ messageId: number }>,
        `UPDATE user_message SET flags = ${set}
         WHERE user_id = ? AND message_id IN (SELECT value FROM json_each(?)) AND ${test}
         RETURNING message_id`,
        userId,
        json(messageIds),
      );
      return changed.map((row) => row.messageId).sort((a, b) => a - b);
    },
    async replaceFlags(messageId, mask, flagsByUser) {
      for (const [userId, flags] of flagsByUser) {
        await q.run(
          `UPDATE user_message SET flags = (flags & ~${mask}) | ? WHERE user_id = ? AND message_id = ?`,
          flags & mask,
          userId,
          messageId,
        );
      }
    },
    async window(scope, conditions, window) {
      return messageWindow(q, scope, conditions, window);
    },
    async matches(scope, conditions, messageId) {
      const { from, where, params } = compileMessageQuery(scope, [...conditions, { kind: 'id', id: messageId, negated: false }]);
      return await q.get(ID, `SELECT m.id FROM ${from} WHERE ${where.join(' AND ')} LIMIT 1`, ...params) !== undefined;
    },
    async maxMessageId(userId) {
      const row = await q.get(VALUE, 'SELECT max(message_id) AS value FROM user_message WHERE user_id = ?', userId);
      return row?.value ?? -1;
    },
    async unread(userId) {
      return await q.all(
        UNREAD,
        `SELECT m.id, um.flags, m.type, m.stream_id, m.topic, m.dm_key, m.sender_id
         FROM user_message um JOIN message m ON m.id = um.message_id
         WHERE um.user_id = ? AND (um.flags & 1) = 0 ORDER BY m.id`,
        userId,
      );
    },
    async topicMessageIds(realmId, streamId, topic) {
      return (await q.all(ID, 'SELECT id FROM message WHERE stream_id = ? AND topic = ? COLLATE NOCASE AND realm_id = ? ORDER BY id DESC', streamId, topic, realmId))
        .map((row) => row.id);
    },
    async topicHasMessage(realmId, streamId, topic, options = {}) {
      const found = await q.get(
        ID,
        `SELECT m.id FROM message m
         WHERE m.stream_id = ? AND m.topic = ? COLLATE NOCASE AND m.realm_id = ?
           AND (? IS NULL OR m.id < ?)
           AND m.id NOT IN (SELECT value FROM json_each(?))
           AND (? IS NULL OR EXISTS (SELECT 1 FROM user_message um WHERE um.user_id = ? AND um.message_id = m.id))
         LIMIT 1`,
        streamId,
        topic,
        realmId,
        options.before ?? null,
        options.before ?? null,
        json(options.except ?? []),
        options.heldBy ?? null,
        options.heldBy ?? null,
      );
      return found !== undefined;
    },
    async topics(realmId, streamId) {
      return await q.all(
        TOPIC,
        // Each topic (case-insensitively) once, named as its newest message spells it.
        `SELECT m.topic AS name, m.id AS max_id FROM message m
         JOIN (SELECT max(id) AS id FROM message WHERE stream_id = ? AND realm_id = ? GROUP BY topic COLLATE NOCASE) newest
           ON newest.id = m.id
         ORDER BY m.id DESC`,
        streamId,
        realmId,
      );
    },
    async dmConversationId(realmId, dmKey) {
      return (await q.get(ID, 'SELECT id FROM dm_conversation WHERE realm_id = ? AND dm_key = ?', realmId, dmKey))?.id ?? 0;
    },
    async dmConversationIds(realmId, dmKeys) {
      if (dmKeys.length === 0) return new Map();
      const rows = await q.all(
        CONVERSATION,
        'SELECT dm_key, id FROM dm_conversation WHERE realm_id = ? AND dm_key IN (SELECT value FROM json_each(?))',
        realmId,
        json(dmKeys),
      );
      return new Map(rows.map((row) => [row.dmKey, row.id]));
    },
    async dmPeerIds(realmId, userId) {
      const rows = await q.all(
        KEY,
        "SELECT dm_key FROM dm_conversation WHERE realm_id = ? AND (',' || dm_key || ',') LIKE ?",
        realmId,
        `%,${userId},%`,
      );
      const peers = new Set(rows.flatMap((row) => row.dmKey.split(',').map(Number)));
      peers.delete(userId);
      return [...peers].sort((a, b) => a - b);
    },
    async recentDmConversations(realmId, userId, limit) {
      // For each conversation, walk its messages newest first (message_dm) to the first one the
      // user holds a copy of (user_message's key): usually the first step.
      return await q.all(
        RECENT_DM,
        // MATERIALIZED: otherwise SQLite inlines the subquery and runs it twice per conversation.
        `WITH latest AS MATERIALIZED (
           SELECT p.dm_key,
             (SELECT m.id FROM message m
              WHERE m.realm_id = p.realm_id AND m.dm_key = p.dm_key
                AND EXISTS (SELECT 1 FROM user_message um WHERE um.user_id = p.user_id AND um.message_id = m.id)
              ORDER BY m.id DESC LIMIT 1) AS max_message_id
           FROM dm_participant p WHERE p.user_id = ? AND p.realm_id = ?
         )
         SELECT dm_key, max_message_id FROM latest WHERE max_message_id IS NOT NULL ORDER BY max_message_id DESC LIMIT ?`,
        userId,
        realmId,
        limit,
      );
    },
    async firstMessageId(realmId, streamId) {
      const row = await q.get(VALUE, 'SELECT min(id) AS value FROM message WHERE stream_id = ? AND realm_id = ?', streamId, realmId);
      return row?.value ?? null;
    },
  };
}

/** A window's row: the viewer's flags with `withFlags` (null where a shared channel's message has no copy of theirs), the format stamp with `withStamps` (null: none). */
interface WindowRow {
  id: number;
  flags?: number | null;
  stamp?: number | string | null;
}

/**
 * Up to numBefore IDs below the anchor, the anchor, and up to numAfter above it; with
 * `withFlags` and `withStamps`, each walk also selects the viewer's flags and the messages'
 * format stamps, so that they cost no statement of their own.
 */
async function messageWindow(q: Statements, scope: MessageScope, conditions: readonly MessageCondition[], window: MessageWindow): Promise<MessageWindowResult> {
  const withFlags = window.withFlags === true;
  const withStamps = window.withStamps === true;
  const { from, where, params, id } = compileMessageQuery(scope, conditions, withFlags);
  // The stamp is looked up by the message's key (message_stamp is small: only changed messages have a row).
  const columns = `${id} AS id${withFlags ? ', um.flags AS flags' : ''}${withStamps ? ', s.stamp AS stamp' : ''}`;
  const stamped = withStamps ? `${from} LEFT JOIN message_stamp s ON s.message_id = ${id}` : from;
  const base = `SELECT ${columns} FROM ${stamped} WHERE ${where.join(' AND ')}`;
  const map = withFlags || withStamps ? WINDOW_ROW : ID;
  // Message IDs are safe integers from 1 up, so nothing lies below an anchor of 1 or less (the
  // anchor "oldest", first_unread's probe) nor above MAX_SAFE_INTEGER (the anchor "newest"):
  // those walks are not run.
  const noneBelow = window.anchor <= 1;
  const noneAbove = window.anchor >= Number.MAX_SAFE_INTEGER;
  const before: WindowRow[] = noneBelow
    ? []
    : await q.all(map, `${base} AND ${id} < ? ORDER BY ${id} DESC LIMIT ?`, ...params, window.anchor, window.numBefore + 1);
  const after: WindowRow[] = noneAbove
    ? []
    : await q.all(map, `${base} AND ${id} > ? ORDER BY ${id} ASC LIMIT ?`, ...params, window.anchor, window.numAfter + 1);
  const anchor: WindowRow | undefined =
    window.anchor >= 1 && window.anchor <= Number.MAX_SAFE_INTEGER ? await q.get(map, `${base} AND ${id} = ?`, ...params, window.anchor) : undefined;
  const rows = [
    ...before.slice(0, window.numBefore).reverse(),
    ...(anchor && window.includeAnchor ? [anchor] : []),
    ...after.slice(0, window.numAfter),
  ];
  const result: MessageWindowResult = {
    ids: rows.map((row) => row.id),
    foundAnchor: anchor !== undefined && window.includeAnchor,
    foundOldest: before.length <= window.numBefore,
    foundNewest: after.length <= window.numAfter,
  };
  if (withFlags) {
    const flags = new Map<number, number>();
    // A row of a shared channel's message without a copy of the viewer's has NULL flags: left out, as flagsOf does.
    for (const row of rows) if (row.flags !== null && row.flags !== undefined) flags.set(row.id, row.flags);
    result.flags = flags;
  }
  if (withStamps) {
    const stamps = new Map<number, number>();
    // Number(): PostgreSQL's BIGINT may arrive as text. No row in message_stamp: stamp 0, left out as formatStamps does.
    for (const row of rows) if (row.stamp !== null && row.stamp !== undefined) stamps.set(row.id, Number(row.stamp));
    result.stamps = stamps;
  }
  return result;
}

/** The reaction store over a connection's statements. */
export function reactionStore(q: Statements): ReactionStore {
  return {
    async add(realmId, r) {
      await q.run(
        'INSERT INTO reaction (realm_id, message_id, user_id, emoji_name, emoji_code, reaction_type) VALUES (?, ?, ?, ?, ?, ?)',
        realmId,
        r.messageId,
        r.userId,
        r.emojiName,
        r.emojiCode,
        r.reactionType,
      );
    },
    async remove(realmId, r) {
      const { changes } = await q.run(
        'DELETE FROM reaction WHERE realm_id = ? AND message_id = ? AND user_id = ? AND emoji_code = ? AND reaction_type = ?',
        realmId,
        r.messageId,
        r.userId,
        r.emojiCode,
        r.reactionType,
      );
      return changes > 0;
    },
    async forMessages(messageIds) {
      if (messageIds.length === 0) return [];
      return await q.all(
        REACTION,
        `SELECT message_id, user_id, emoji_name, emoji_code, reaction_type FROM reaction
         WHERE message_id IN (SELECT value FROM json_each(?)) ORDER BY id`,
        json(messageIds),
      );
    },
  };
}
