/**
 * The tables an organisation's archive holds, in the order an import writes them (each after
 * the tables it refers to), with how to select one realm's rows and which columns hold IDs.
 * Tables left out hold nothing that moves with an organisation: sessions and devices (push
 * tokens, presence), queues (outgoing mail, push bookkeeping), pending invitations (their links
 * name the old server), and installation-wide bookkeeping (ID high-water marks, the channel cache
 * token, the full-text index, which an import rebuilds from the messages).
 */
import { FIELD_TYPES } from '@teamchat/core/internal';
import { type IdKind, type IdMaps, remapContent, remapDmKey, remapPathId, remapSettings } from './id-maps.js';
import type { Row } from './database-handle.js';

/** What a table's rewrite may read and record while an import runs. */
export interface RewriteState {
  maps: IdMaps;
  /** Custom profile fields (old IDs) whose values are lists of user IDs. */
  userListFields: Set<number>;
}

export interface RealmTable {
  table: string;
  /** The realm's rows: a condition with one `?`, the realm's ID. */
  where: string;
  /** A total order (the primary key), so that an export is the same every time. */
  orderBy: string;
  /** The kind of ID the table's `id` column is, when an import renumbers it. */
  id?: IdKind;
  /** Columns that must name a row of the archive. */
  refs?: Readonly<Record<string, IdKind>>;
  /** Columns that may be null or name a row since deleted (then null). */
  optionalRefs?: Readonly<Record<string, IdKind>>;
  /** Rewrites the IDs that values hold (JSON, keys, content), in place. */
  rewrite?(row: Row, state: RewriteState): void;
}

const IN_REALM = 'realm_id = ?';
const inRealmOf = (column: string, table: string) => `${column} IN (SELECT id FROM "${table}" WHERE realm_id = ?)`;

const rewriteContent = (row: Row, state: RewriteState, ...columns: string[]) => {
  for (const column of columns) if (typeof row[column] === 'string') row[column] = remapContent(state.maps, row[column] as string);
};

/** The emoji code of a custom emoji is its ID. */
const rewriteEmojiCode = (row: Row, state: RewriteState) => {
  if (row.reaction_type === 'realm_emoji') row.emoji_code = state.maps.inText('realm_emoji', String(row.emoji_code));
};

export const REALM_TABLES: readonly RealmTable[] = [
  {
    table: 'realm',
    where: 'id = ?',
    orderBy: 'id',
    id: 'realm',
    rewrite: (row, state) => {
      row.settings = remapSettings(state.maps, row.settings as string);
      rewriteContent(row, state, 'description');
    },
  },
  { table: 'user', where: IN_REALM, orderBy: 'id', id: 'user', optionalRefs: { bot_owner_id: 'user' } },
  {
    table: 'bot_profile',
    where: IN_REALM,
    orderBy: 'bot_id',
    refs: { bot_id: 'user' },
    optionalRefs: { default_sending_stream_id: 'stream', default_events_register_stream_id: 'stream' },
  },
  { table: 'bot_storage', where: IN_REALM, orderBy: 'user_id, key', refs: { user_id: 'user' } },
  // Its `id` numbers a user's words (1, 2, …), not rows of the installation: kept.
  { table: 'alert_word', where: IN_REALM, orderBy: 'user_id, word_key', refs: { user_id: 'user' } },
  { table: 'channel_folder', where: IN_REALM, orderBy: 'id', id: 'channel_folder', optionalRefs: { creator_id: 'user' } },
  {
    table: 'stream',
    where: IN_REALM,
    orderBy: 'id',
    id: 'stream',
    optionalRefs: { creator_id: 'user', folder_id: 'channel_folder', first_message_id: 'message' },
    rewrite: (row, state) => {
      row.group_settings = remapSettings(state.maps, row.group_settings as string);
      rewriteContent(row, state, 'rendered_description');
    },
  },
  { table: 'default_stream', where: IN_REALM, orderBy: 'stream_id', refs: { stream_id: 'stream' } },
  { table: 'subscription', where: IN_REALM, orderBy: 'user_id, stream_id', refs: { user_id: 'user', stream_id: 'stream' } },
  { table: 'user_topic', where: IN_REALM, orderBy: 'user_id, stream_id, topic', refs: { user_id: 'user', stream_id: 'stream' } },
  {
    table: 'user_group',
    where: IN_REALM,
    orderBy: 'id',
    id: 'user_group',
    optionalRefs: { creator_id: 'user' },
    rewrite: (row, state) => {
      row.settings = remapSettings(state.maps, row.settings as string);
    },
  },
  { table: 'user_group_member', where: inRealmOf('group_id', 'user_group'), orderBy: 'group_id, user_id', refs: { group_id: 'user_group', user_id: 'user' } },
  {
    table: 'user_group_subgroup',
    where: inRealmOf('supergroup_id', 'user_group'),
    orderBy: 'supergroup_id, subgroup_id',
    refs: { supergroup_id: 'user_group', subgroup_id: 'user_group' },
  },
  {
    table: 'custom_profile_field',
    where: IN_REALM,
    orderBy: 'id',
    id: 'custom_profile_field',
    rewrite: (row, state) => {
      if (row.type === FIELD_TYPES.USER?.id) state.userListFields.add(Number(row.id));
    },
  },
  {
    table: 'custom_profile_field_value',
    where: inRealmOf('field_id', 'custom_profile_field'),
    orderBy: 'user_id, field_id',
    refs: { field_id: 'custom_profile_field', user_id: 'user' },
    rewrite: (row, state) => {
      if (!state.userListFields.has(Number(row.field_id))) return;
      const ids = JSON.parse(row.value as string) as number[];
      row.value = JSON.stringify(ids.map((id) => state.maps.optional('user', id)).filter((id) => id !== null));
    },
  },
  { table: 'realm_domain', where: IN_REALM, orderBy: 'id', id: 'realm_domain' },
  { table: 'realm_emoji', where: IN_REALM, orderBy: 'id', id: 'realm_emoji', optionalRefs: { author_id: 'user' } },
  { table: 'realm_emoji_image', where: inRealmOf('emoji_id', 'realm_emoji'), orderBy: 'emoji_id', refs: { emoji_id: 'realm_emoji' } },
  { table: 'realm_linkifier', where: IN_REALM, orderBy: 'id', id: 'realm_linkifier' },
  { table: 'realm_playground', where: IN_REALM, orderBy: 'id', id: 'realm_playground' },
  { table: 'muted_user', where: IN_REALM, orderBy: 'id', id: 'muted_user', refs: { user_id: 'user', muted_user_id: 'user' } },
  { table: 'user_status', where: IN_REALM, orderBy: 'user_id', refs: { user_id: 'user' }, rewrite: rewriteEmojiCode },
  { table: 'saved_snippet', where: IN_REALM, orderBy: 'id', id: 'saved_snippet', refs: { user_id: 'user' } },
  { table: 'navigation_view', where: IN_REALM, orderBy: 'id', id: 'navigation_view', refs: { user_id: 'user' } },
  {
    table: 'draft',
    where: IN_REALM,
    orderBy: 'id',
    id: 'draft',
    refs: { user_id: 'user' },
    rewrite: (row, state) => {
      const kind: IdKind = row.type === 'stream' ? 'stream' : 'user';
      const ids = JSON.parse(row.to_ids as string) as number[];
      row.to_ids = JSON.stringify(ids.map((id) => state.maps.optional(kind, id)).filter((id) => id !== null));
    },
  },
  {
    table: 'dm_conversation',
    where: IN_REALM,
    orderBy: 'id',
    id: 'dm_conversation',
    rewrite: (row, state) => {
      row.dm_key = remapDmKey(state.maps, row.dm_key as string, 'dm_conversation');
    },
  },
  {
    table: 'dm_participant',
    where: IN_REALM,
    orderBy: 'user_id, dm_key',
    refs: { user_id: 'user' },
    rewrite: (row, state) => {
      row.dm_key = remapDmKey(state.maps, row.dm_key as string, 'dm_participant');
    },
  },
  {
    table: 'message',
    where: IN_REALM,
    orderBy: 'id',
    id: 'message',
    refs: { sender_id: 'user' },
    optionalRefs: { stream_id: 'stream' },
    rewrite: (row, state) => {
      if (typeof row.dm_key === 'string') row.dm_key = remapDmKey(state.maps, row.dm_key, `message ${row.id}`);
      rewriteContent(row, state, 'content', 'rendered_content');
      row.edit_history = remapEditHistory(state, row.edit_history as string);
    },
  },
  { table: 'user_message', where: inRealmOf('message_id', 'message'), orderBy: 'message_id, user_id', refs: { message_id: 'message', user_id: 'user' } },
  { table: 'reaction', where: IN_REALM, orderBy: 'id', id: 'reaction', refs: { message_id: 'message', user_id: 'user' }, rewrite: rewriteEmojiCode },
  { table: 'submessage', where: IN_REALM, orderBy: 'id', id: 'submessage', refs: { message_id: 'message', sender_id: 'user' } },
  {
    table: 'attachment',
    where: IN_REALM,
    orderBy: 'id',
    id: 'attachment',
    refs: { owner_id: 'user' },
    rewrite: (row, state) => {
      row.path_id = remapPathId(state.maps, row.path_id as string);
    },
  },
  {
    table: 'message_attachment',
    where: inRealmOf('message_id', 'message'),
    orderBy: 'attachment_id, message_id',
    refs: { message_id: 'message', attachment_id: 'attachment' },
  },
  {
    table: 'scheduled_message',
    where: IN_REALM,
    orderBy: 'id',
    id: 'scheduled_message',
    refs: { sender_id: 'user' },
    optionalRefs: { stream_id: 'stream', reminder_target_message_id: 'message' },
    rewrite: (row, state) => {
      const ids = JSON.parse(row.recipient_ids as string) as number[];
      row.recipient_ids = JSON.stringify(ids.map((id) => state.maps.optional('user', id)).filter((id) => id !== null));
      rewriteContent(row, state, 'content', 'rendered_content');
    },
  },
];

export const REALM_TABLE_NAMES = REALM_TABLES.map((t) => t.table);

/** A message's edit history: who edited, the channels it moved between, and earlier content. */
function remapEditHistory(state: RewriteState, json: string): string {
  const entries = JSON.parse(json) as Record<string, unknown>[];
  if (entries.length === 0) return json;
  for (const entry of entries) {
    if (typeof entry.user_id === 'number') entry.user_id = state.maps.optional('user', entry.user_id);
    for (const key of ['stream', 'prev_stream'] as const) if (typeof entry[key] === 'number') entry[key] = state.maps.optional('stream', entry[key]) ?? entry[key];
    for (const key of ['prev_content', 'prev_rendered_content'] as const) if (typeof entry[key] === 'string') entry[key] = remapContent(state.maps, entry[key] as string);
  }
  return JSON.stringify(entries);
}
