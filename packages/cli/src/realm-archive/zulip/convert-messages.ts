/**
 * A Zulip export's messages as teamchat rows: channel messages, one-to-one and group direct
 * messages (whose participants Zulip keeps as subscriptions to the group's Recipient row), each
 * user's copy with its flags, reactions, and the direct conversations teamchat indexes.
 */
import { FLAG_BITS, renderMessage } from '@teamchat/core/internal';
import type { Row } from '../database-handle.js';
import { flag, seconds } from './convert-people.js';
import {
  RECIPIENT_DIRECT_MESSAGE_GROUP,
  RECIPIENT_PERSONAL,
  RECIPIENT_STREAM,
  ZULIP_FLAG_BITS,
  type ZRow,
  type ZulipMessageFile,
  type ZulipRealmFile,
} from './zulip-export-types.js';

type Destination = { type: 'stream'; streamId: number } | { type: 'private'; members: number[] };

/** Where each Recipient row sends: a channel, one person, or a direct message group's members. */
function destinations(data: ZulipRealmFile): Map<number, Destination> {
  const groupMembers = new Map<number, number[]>();
  for (const sub of data.zerver_subscription ?? []) {
    const list = groupMembers.get(Number(sub.recipient)) ?? [];
    list.push(Number(sub.user_profile));
    groupMembers.set(Number(sub.recipient), list);
  }
  const map = new Map<number, Destination>();
  for (const r of data.zerver_recipient ?? []) {
    const id = Number(r.id);
    if (r.type === RECIPIENT_STREAM) map.set(id, { type: 'stream', streamId: Number(r.type_id) });
    else if (r.type === RECIPIENT_PERSONAL) map.set(id, { type: 'private', members: [Number(r.type_id)] });
    else if (r.type === RECIPIENT_DIRECT_MESSAGE_GROUP) map.set(id, { type: 'private', members: groupMembers.get(id) ?? [] });
  }
  return map;
}

/** Zulip's flags bitfield as teamchat's. */
export function convertFlags(mask: number): number {
  let flags = 0;
  for (const [bit, name] of ZULIP_FLAG_BITS) if (mask & bit) flags |= FLAG_BITS[name as keyof typeof FLAG_BITS];
  return flags;
}

export interface MessageTables {
  message: Row[];
  user_message: Row[];
  dm_conversation: Row[];
  dm_participant: Row[];
}

export function convertMessages(
  data: ZulipRealmFile,
  files: ZulipMessageFile[],
  realmId: number,
  userIds: Set<number>,
  names: Map<number, string>,
): MessageTables {
  const where = destinations(data);
  const clients = new Map((data.zerver_client ?? []).map((c) => [Number(c.id), String(c.name)]));
  const conversations = new Map<string, number>();
  const out: MessageTables = { message: [], user_message: [], dm_conversation: [], dm_participant: [] };
  for (const file of files) {
    for (const m of file.zerver_message ?? []) {
      const destination = where.get(Number(m.recipient));
      const sender = Number(m.sender);
      if (!destination || !userIds.has(sender)) continue;
      let dmKey: string | null = null;
      if (destination.type === 'private') {
        dmKey = [...new Set([sender, ...destination.members])].filter((id) => userIds.has(id)).sort((a, b) => a - b).join(',');
        if (!conversations.has(dmKey)) {
          conversations.set(dmKey, conversations.size + 1);
          out.dm_conversation.push({ id: conversations.size, realm_id: realmId, dm_key: dmKey });
          for (const id of dmKey.split(',')) out.dm_participant.push({ user_id: Number(id), realm_id: realmId, dm_key: dmKey });
        }
      }
      const content = String(m.content ?? '');
      out.message.push({
        id: Number(m.id),
        realm_id: realmId,
        sender_id: sender,
        type: destination.type,
        stream_id: destination.type === 'stream' ? destination.streamId : null,
        topic: destination.type === 'stream' ? String(m.subject ?? m.topic ?? '') : '',
        dm_key: dmKey,
        content,
        rendered_content: typeof m.rendered_content === 'string' ? m.rendered_content : rerender(content, names),
        date_sent: seconds(m.date_sent ?? m.pub_date),
        sending_client: clients.get(Number(m.sending_client)) ?? 'API',
        last_edit_time: m.last_edit_time === null || m.last_edit_time === undefined ? null : seconds(m.last_edit_time),
        last_moved_time: null,
        edit_history: editHistory(m),
        has_link: flag(m.has_link),
        has_image: flag(m.has_image),
        has_attachment: flag(m.has_attachment),
        is_me_message: flag(content.startsWith('/me ')),
      });
    }
  }
  const messageIds = new Set(out.message.map((m) => m.id as number));
  for (const file of files) {
    for (const um of file.zerver_usermessage ?? []) {
      const userId = Number(um.user_profile);
      const messageId = Number(um.message);
      if (!userIds.has(userId) || !messageIds.has(messageId)) continue;
      out.user_message.push({ user_id: userId, message_id: messageId, flags: convertFlags(Number(um.flags_mask ?? 0)) });
    }
  }
  return out;
}

/** Reactions on the imported messages; Zulip's `zulip_extra_emoji` is teamchat's `service_extra_emoji`. */
export function convertReactions(data: ZulipRealmFile, files: ZulipMessageFile[], realmId: number, messageIds: Set<number>, userIds: Set<number>): Row[] {
  // realm.json holds them; some exports put them beside the messages.
  const all: ZRow[] = [...(data.zerver_reaction ?? []), ...files.flatMap((f) => (f as unknown as { zerver_reaction?: ZRow[] }).zerver_reaction ?? [])];
  return all
    .filter((r) => messageIds.has(Number(r.message)) && userIds.has(Number(r.user_profile)))
    .map((r) => ({
      id: Number(r.id),
      realm_id: realmId,
      message_id: Number(r.message),
      user_id: Number(r.user_profile),
      emoji_name: String(r.emoji_name),
      emoji_code: String(r.emoji_code),
      reaction_type: r.reaction_type === 'zulip_extra_emoji' ? 'service_extra_emoji' : String(r.reaction_type ?? 'unicode_emoji'),
    }));
}

/** The edit history, kept when it is the list the reference writes (older exports may hold null). */
function editHistory(m: ZRow): string {
  if (typeof m.edit_history !== 'string') return '[]';
  try {
    const parsed = JSON.parse(m.edit_history) as unknown;
    if (!Array.isArray(parsed)) return '[]';
    // The reference's older name for topic edits.
    for (const entry of parsed as Record<string, unknown>[]) {
      if ('prev_subject' in entry && !('prev_topic' in entry)) entry.prev_topic = entry.prev_subject;
      delete entry.prev_subject;
    }
    return JSON.stringify(parsed);
  } catch {
    return '[]';
  }
}

/** A message the export holds no rendering of is rendered here, with mentions of the realm's users. */
function rerender(content: string, names: Map<number, string>): string {
  const byName = new Map([...names].map(([id, name]) => [name.toLowerCase(), { id, fullName: name }]));
  return renderMessage(content, {
    realmUrl: '',
    userById: (id) => (names.has(id) ? { id, fullName: names.get(id)! } : null),
    userByName: (name) => byName.get(name.toLowerCase()) ?? null,
  }).html;
}
