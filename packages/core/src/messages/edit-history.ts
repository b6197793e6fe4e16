/**
 * A message's edit history as clients see it, under the realm's
 * message_edit_history_visibility_policy: `all` shows every entry, `moves` only topic and
 * channel changes (content-only edits are dropped, combined edits lose their content fields),
 * `none` nothing.
 */
import { realmSetting } from '../settings/realm-settings.js';
import type { EditHistoryEntry, Message, Realm } from '../storage/types.js';
import { htmlDiff } from './html-diff.js';
import { topicForClient } from './normalize.js';

export type EditHistoryPolicy = 'all' | 'moves' | 'none';

/** The realm's message_edit_history_visibility_policy. */
export const editHistoryPolicy = (realm: Pick<Realm, 'settings'>) =>
  realmSetting(realm, 'message_edit_history_visibility_policy') as EditHistoryPolicy;

/**
 * Entries of the message record's `edit_history` (newest first) the policy lets the reader
 * see, with empty topics shown as the client expects; null when the field is left out
 * (never edited or moved, or the policy is `none`).
 */
export function visibleEditHistory(entries: readonly EditHistoryEntry[], policy: EditHistoryPolicy, emptyTopicName: boolean): EditHistoryEntry[] | null {
  if (entries.length === 0 || policy === 'none') return null;
  const visible: EditHistoryEntry[] = [];
  for (const entry of entries) {
    const shown = { ...entry };
    if (shown.prev_topic !== undefined) shown.prev_topic = topicForClient(shown.prev_topic, emptyTopicName);
    if (shown.topic !== undefined) shown.topic = topicForClient(shown.topic, emptyTopicName);
    if (policy === 'moves' && shown.prev_content !== undefined) {
      // A content-only edit is hidden; a combined edit keeps its move part.
      if (shown.prev_topic === undefined && shown.prev_stream === undefined) continue;
      delete shown.prev_content;
      delete shown.prev_rendered_content;
    }
    visible.push(shown);
  }
  return visible;
}

/** One snapshot of GET /messages/{id}/history: the message's state right after an edit. */
export interface EditSnapshot {
  topic: string;
  content: string;
  rendered_content: string;
  timestamp: number;
  user_id: number | null;
  prev_topic?: string;
  prev_content?: string;
  prev_rendered_content?: string;
  content_html_diff?: string;
  prev_stream?: number;
  stream?: number;
}

/**
 * The reference's fill_edit_history_entries plus its visibility filter: snapshots oldest first,
 * starting with the message as sent. Under `moves` content-only edits are dropped and no
 * snapshot carries prev_content, prev_rendered_content or content_html_diff.
 */
export function editSnapshots(message: Message, policy: Exclude<EditHistoryPolicy, 'none'>, emptyTopicName: boolean): EditSnapshot[] {
  const shownTopic = (topic: string) => (message.type === 'stream' ? topicForClient(topic, emptyTopicName) : '');
  let content = message.content;
  let rendered = message.renderedContent;
  let topic = shownTopic(message.topic);
  const snapshots: EditSnapshot[] = [];
  for (const entry of message.editHistory) {
    const snapshot: EditSnapshot = { content, rendered_content: rendered, timestamp: entry.timestamp, topic, user_id: entry.user_id };
    if (entry.prev_topic !== undefined) {
      topic = shownTopic(entry.prev_topic);
      snapshot.prev_topic = topic;
    }
    if (entry.prev_content !== undefined) {
      content = entry.prev_content;
      rendered = entry.prev_rendered_content ?? '';
      if (policy === 'all') {
        snapshot.prev_content = content;
        snapshot.prev_rendered_content = rendered;
        snapshot.content_html_diff = htmlDiff(rendered, snapshot.rendered_content);
      }
    }
    if (entry.prev_stream !== undefined) {
      snapshot.prev_stream = entry.prev_stream;
      snapshot.stream = entry.stream!;
    }
    const contentOnly = entry.prev_content !== undefined && entry.prev_topic === undefined && entry.prev_stream === undefined;
    if (!(policy === 'moves' && contentOnly)) snapshots.push(snapshot);
  }
  snapshots.push({ content, rendered_content: rendered, timestamp: message.dateSent, topic, user_id: message.senderId });
  return snapshots.reverse();
}
