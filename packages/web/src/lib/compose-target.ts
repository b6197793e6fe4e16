/**
 * Where the compose box sends: a channel and topic, or direct recipients. Derived from the open
 * view, changed by the user or a reply; also the key a draft is filed under.
 */
import type { MessageView } from '../narrow/view';
import type { Draft } from '../stores/chat';

export type ComposeTarget = { kind: 'channel'; channelId: number | undefined; topic: string } | { kind: 'dm'; userIds: number[] };

export function targetForView(view: MessageView, ownId: number, firstChannel: number | undefined): ComposeTarget {
  if (view.kind === 'channel') return { kind: 'channel', channelId: view.channelId, topic: view.topic ?? '' };
  if (view.kind === 'dm') return { kind: 'dm', userIds: view.userIds.filter((id) => id !== ownId).length > 0 ? view.userIds.filter((id) => id !== ownId) : [ownId] };
  return { kind: 'channel', channelId: firstChannel, topic: '' };
}

/**
 * The target after the view changes: the view's, except that when the new view names no topic,
 * a topic already in the box stays if it was for the same channel, or if the user typed it since
 * the last view change (a topic typed right after clicking a channel, before the view followed
 * the click, goes to that channel: what the Topic box shows is what is sent).
 */
export function retarget(current: ComposeTarget, forView: ComposeTarget, topicTyped = false): ComposeTarget {
  if (current.kind !== 'channel' || forView.kind !== 'channel' || forView.topic !== '') return forView;
  if (current.channelId === forView.channelId) return current;
  return topicTyped && current.topic !== '' ? { ...forView, topic: current.topic } : forView;
}

/** The API's sendMessage parameters for a target and content. */
export function sendParams(target: ComposeTarget, content: string): Record<string, string> {
  if (target.kind === 'channel') return { type: 'stream', to: String(target.channelId), topic: target.topic, content };
  return { type: 'direct', to: JSON.stringify(target.userIds), content };
}

/** Whether a draft belongs to the target (same channel and topic, or same recipients). */
export function draftMatches(draft: Draft, target: ComposeTarget): boolean {
  if (target.kind === 'channel') {
    return draft.type === 'stream' && draft.to[0] === target.channelId && draft.topic.toLowerCase() === target.topic.toLowerCase();
  }
  const sorted = (ids: readonly number[]) => [...ids].sort((a, b) => a - b).join(',');
  return draft.type === 'private' && sorted(draft.to) === sorted(target.userIds);
}

/** A target's draft fields for `/drafts`. */
export function draftFields(target: ComposeTarget, content: string): Omit<Draft, 'id'> {
  const timestamp = Math.floor(Date.now() / 1000);
  if (target.kind === 'channel') return { type: 'stream', to: target.channelId === undefined ? [] : [target.channelId], topic: target.topic, content, timestamp };
  return { type: 'private', to: target.userIds, topic: '', content, timestamp };
}

export function targetReady(target: ComposeTarget, mandatoryTopics: boolean): boolean {
  if (target.kind === 'dm') return target.userIds.length > 0;
  return target.channelId !== undefined && (!mandatoryTopics || target.topic.trim() !== '');
}
