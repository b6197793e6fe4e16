/**
 * A client-side reducer for what update_message_flags keeps current: `unread_msgs` and
 * `starred_messages` (the test half of verify_action). It follows the reference's apply_event:
 * `add read` removes IDs; `remove read` files each message where its message_details say.
 */
import type { QueuedEvent } from '@teamchat/core';
import type { State } from './apply-events.js';

interface Unread {
  count: number;
  pms: Array<{ other_user_id: number; sender_id: number; unread_message_ids: number[] }>;
  streams: Array<{ stream_id: number; topic: string; unread_message_ids: number[] }>;
  huddles: Array<{ user_ids_string: string; unread_message_ids: number[] }>;
  mentions: number[];
  old_unreads_missing: boolean;
}

type Details =
  | { type: 'stream'; stream_id: number; topic: string; unmuted_stream_msg: boolean; mentioned?: boolean }
  | { type: 'private'; user_ids: number[]; mentioned?: boolean };

export interface FlagReducerContext {
  /** The client's own user ID (self-DMs and group keys). */
  selfId: number;
  /** Channels the user had muted when the snapshot was fetched (their messages do not count). */
  mutedStreamIds: ReadonlySet<number>;
  /**
   * The user's topic policies at the snapshot (its `user_topics`): a muted topic does not count,
   * an unmuted or followed one in a muted channel does, as the reference's raw unread data keeps it.
   */
  topicPolicies?: ReadonlyArray<{ stream_id: number; topic_name: string; visibility_policy: number }>;
}

/** Whether the reference leaves a channel topic out of the count (is_row_muted). */
function rowMuted(context: FlagReducerContext, streamId: number, topic: string): boolean {
  const policy = context.topicPolicies?.find((p) => p.stream_id === streamId && p.topic_name.toLowerCase() === topic.toLowerCase())?.visibility_policy ?? 0;
  if (context.mutedStreamIds.has(streamId)) return policy !== 2 && policy !== 3;
  return policy === 1;
}

export function applyFlagEvents(state: State, events: readonly QueuedEvent[], context: FlagReducerContext): State {
  const next: State = structuredClone(state);
  const unread = next.unread_msgs as Unread;
  // Which stream messages count, as the reference's raw unread data keeps it.
  const uncounted = new Set<number>();
  for (const entry of unread.streams) if (rowMuted(context, entry.stream_id, entry.topic)) for (const id of entry.unread_message_ids) uncounted.add(id);

  for (const event of events) {
    if (event.type !== 'update_message_flags') throw new Error(`no reducer for ${event.type}`);
    const ids = event.messages;
    if (event.all !== false) throw new Error('all: true is never sent');
    if (event.operation !== event.op) throw new Error('operation must equal op');
    if (event.flag === 'starred' && Array.isArray(next.starred_messages)) {
      const starred = new Set<number>(next.starred_messages);
      for (const id of ids) event.op === 'add' ? starred.add(id) : starred.delete(id);
      next.starred_messages = [...starred].sort((a, b) => a - b);
    }
    if (event.flag !== 'read') {
      if ('message_details' in event) throw new Error('message_details only on remove read');
      continue;
    }
    if (event.op === 'add') {
      if ('message_details' in event) throw new Error('message_details only on remove read');
      const gone = new Set(ids);
      const keep = (list: number[]) => list.filter((id) => !gone.has(id));
      for (const group of [...unread.pms, ...unread.streams, ...unread.huddles]) group.unread_message_ids = keep(group.unread_message_ids);
      unread.pms = unread.pms.filter((g) => g.unread_message_ids.length > 0);
      unread.streams = unread.streams.filter((g) => g.unread_message_ids.length > 0);
      unread.huddles = unread.huddles.filter((g) => g.unread_message_ids.length > 0);
      unread.mentions = keep(unread.mentions);
    } else {
      const details: Record<string, Details> = event.message_details ?? {};
      if (Object.keys(details).map(Number).sort((a, b) => a - b).join() !== [...ids].sort((a, b) => a - b).join()) throw new Error('details must cover every message');
      for (const id of ids) file(unread, id, details[String(id)]!, context, uncounted);
    }
  }
  const counted = (list: number[]) => list.filter((id) => !uncounted.has(id)).length;
  unread.count = [...unread.pms, ...unread.streams, ...unread.huddles].reduce((sum, g) => sum + counted(g.unread_message_ids), 0);
  return next;
}

function file(unread: Unread, id: number, details: Details, context: FlagReducerContext, uncounted: Set<number>): void {
  const add = (list: number[]) => {
    list.push(id);
    list.sort((a, b) => a - b);
  };
  if (details.mentioned) add(unread.mentions);
  if (details.type === 'stream') {
    if (!details.unmuted_stream_msg) uncounted.add(id);
    const entry = unread.streams.find((g) => g.stream_id === details.stream_id && g.topic.toLowerCase() === details.topic.toLowerCase());
    if (entry) add(entry.unread_message_ids);
    else unread.streams.push({ stream_id: details.stream_id, topic: details.topic, unread_message_ids: [id] });
    return;
  }
  if (details.user_ids.length <= 1) {
    const other = details.user_ids[0] ?? context.selfId;
    const entry = unread.pms.find((g) => g.other_user_id === other);
    if (entry) add(entry.unread_message_ids);
    else unread.pms.push({ other_user_id: other, sender_id: other, unread_message_ids: [id] });
    return;
  }
  const key = [...details.user_ids, context.selfId].sort((a, b) => a - b).join(',');
  const entry = unread.huddles.find((g) => g.user_ids_string === key);
  if (entry) add(entry.unread_message_ids);
  else unread.huddles.push({ user_ids_string: key, unread_message_ids: [id] });
}

/** The flag-kept sections in a comparable order (groups by their keys). */
export function normalizedFlagState(state: State): State {
  const unread = structuredClone(state.unread_msgs) as Unread;
  unread.pms.sort((a, b) => a.other_user_id - b.other_user_id);
  unread.streams.sort((a, b) => a.stream_id - b.stream_id || a.topic.localeCompare(b.topic));
  unread.huddles.sort((a, b) => a.user_ids_string.localeCompare(b.user_ids_string));
  return { unread_msgs: unread, starred_messages: state.starred_messages };
}
