/**
 * Unread messages, by message ID and where each one is filed: a channel topic or a direct
 * conversation. Built from register's `unread_msgs` and kept live from message, flag, move and
 * delete events. Counts are derived, so they can never drift from the set of IDs.
 */
import { dmPartners } from '../narrow/matches';
import type { Message } from './types';

export type UnreadPlace = { kind: 'stream'; channelId: number; topic: string } | { kind: 'dm'; key: string };

export interface UnreadState {
  readonly places: ReadonlyMap<number, UnreadPlace>;
  readonly mentions: ReadonlySet<number>;
}

interface UnreadMsgs {
  pms: Array<{ other_user_id?: number; sender_id?: number; unread_message_ids: number[] }>;
  streams: Array<{ stream_id: number; topic: string; unread_message_ids: number[] }>;
  huddles: Array<{ user_ids_string: string; unread_message_ids: number[] }>;
  mentions: number[];
}

/** A direct conversation's key: its participants other than oneself, sorted (oneself alone for notes to self). */
export function dmKey(userIds: readonly number[], ownId: number): string {
  const others = [...new Set(userIds)].filter((id) => id !== ownId);
  return (others.length > 0 ? others : [ownId]).sort((a, b) => a - b).join(',');
}

export function unreadFromRegister(unread: UnreadMsgs | undefined, ownId: number): UnreadState {
  const places = new Map<number, UnreadPlace>();
  for (const entry of unread?.streams ?? []) {
    for (const id of entry.unread_message_ids) places.set(id, { kind: 'stream', channelId: entry.stream_id, topic: entry.topic });
  }
  for (const entry of unread?.pms ?? []) {
    const other = entry.other_user_id ?? entry.sender_id ?? ownId;
    for (const id of entry.unread_message_ids) places.set(id, { kind: 'dm', key: dmKey([other], ownId) });
  }
  for (const entry of unread?.huddles ?? []) {
    const key = dmKey(entry.user_ids_string.split(',').map(Number), ownId);
    for (const id of entry.unread_message_ids) places.set(id, { kind: 'dm', key });
  }
  return { places, mentions: new Set(unread?.mentions ?? []) };
}

export function placeOf(message: Message, ownId: number): UnreadPlace {
  return message.type === 'stream'
    ? { kind: 'stream', channelId: message.stream_id!, topic: message.subject }
    : { kind: 'dm', key: dmPartners(message, ownId).join(',') };
}

/** A new message: unread unless its flags say read. */
export function addMessage(state: UnreadState, message: Message, flags: readonly string[], ownId: number): UnreadState {
  if (flags.includes('read')) return state;
  const places = new Map(state.places).set(message.id, placeOf(message, ownId));
  const mentioned = flags.some((flag) => flag === 'mentioned' || flag === 'wildcard_mentioned');
  return { places, mentions: mentioned ? new Set(state.mentions).add(message.id) : state.mentions };
}

export function removeIds(state: UnreadState, ids: readonly number[]): UnreadState {
  if (!ids.some((id) => state.places.has(id))) return state;
  const places = new Map(state.places);
  const mentions = new Set(state.mentions);
  for (const id of ids) {
    places.delete(id);
    mentions.delete(id);
  }
  return { places, mentions };
}

/** Messages marked unread again: `message_details` (from the flags event) says where each is filed. */
export function restoreIds(
  state: UnreadState,
  details: Record<string, { type: 'stream'; stream_id: number; topic: string; mentioned?: boolean } | { type: 'private'; user_ids: number[]; mentioned?: boolean }>,
  ownId: number,
): UnreadState {
  const places = new Map(state.places);
  const mentions = new Set(state.mentions);
  for (const [id, detail] of Object.entries(details)) {
    places.set(
      Number(id),
      detail.type === 'stream' ? { kind: 'stream', channelId: detail.stream_id, topic: detail.topic } : { kind: 'dm', key: dmKey(detail.user_ids, ownId) },
    );
    if (detail.mentioned) mentions.add(Number(id));
  }
  return { places, mentions };
}

/** Messages moved to another channel or topic stay unread where they now are. */
export function moveIds(state: UnreadState, ids: readonly number[], channelId: number | undefined, topic: string | undefined): UnreadState {
  const places = new Map(state.places);
  for (const id of ids) {
    const place = places.get(id);
    if (place?.kind !== 'stream') continue;
    places.set(id, { kind: 'stream', channelId: channelId ?? place.channelId, topic: topic ?? place.topic });
  }
  return { places, mentions: state.mentions };
}

export interface UnreadCounts {
  total: number;
  byChannel: Map<number, number>;
  /** `channelId:topic` (topic lower-cased, as the server compares topics). */
  byTopic: Map<string, number>;
  byDm: Map<string, number>;
  mentions: number;
}

export function topicKey(channelId: number, topic: string): string {
  return `${channelId}:${topic.toLowerCase()}`;
}

export function countUnread(state: UnreadState): UnreadCounts {
  const counts: UnreadCounts = { total: state.places.size, byChannel: new Map(), byTopic: new Map(), byDm: new Map(), mentions: state.mentions.size };
  const bump = (map: Map<string | number, number>, key: string | number) => map.set(key, (map.get(key) ?? 0) + 1);
  for (const place of state.places.values()) {
    if (place.kind === 'stream') {
      bump(counts.byChannel as Map<string | number, number>, place.channelId);
      bump(counts.byTopic as Map<string | number, number>, topicKey(place.channelId, place.topic));
    } else {
      bump(counts.byDm as Map<string | number, number>, place.key);
    }
  }
  return counts;
}
