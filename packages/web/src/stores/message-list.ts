/**
 * The messages of the open view, oldest first, and how far the server's history has been read
 * in each direction. Pure functions of (list, change), so the list can be tested with fixtures.
 */
import { messageMatchesView } from '../narrow/matches';
import type { MessageView } from '../narrow/view';
import type { Message, Reaction } from './types';

export interface MessageList {
  view: MessageView;
  messages: Message[];
  /** No older message exists: infinite scroll stops. */
  foundOldest: boolean;
  /** The list reaches the present, so live messages are appended (else they would leave a gap). */
  foundNewest: boolean;
  loading: boolean;
  /**
   * The first page is on its way. Live messages for the view are kept meanwhile: the page may
   * have been read before they were sent, and they are newer than anything it holds.
   */
  firstPage?: boolean;
  /**
   * Every change that came while the first page was on its way, in order. The page may have been
   * read before any of them, so they are applied to it again when it arrives; each sets a value
   * (a message, a reaction, a flag, content), so one the page already reflects changes nothing.
   */
  changedWhileLoading?: Change[];
  error?: string;
}

type Change = (list: MessageList) => MessageList;

/** Applies a change, and remembers it while the first page is on its way (see `changedWhileLoading`). */
function change(list: MessageList, apply: Change): MessageList {
  const changed = apply(list);
  if (!list.firstPage) return changed;
  return { ...changed, changedWhileLoading: [...(list.changedWhileLoading ?? []), apply] };
}

export function emptyList(view: MessageView): MessageList {
  return { view, messages: [], foundOldest: false, foundNewest: false, loading: true, firstPage: true };
}

export interface FetchedPage {
  messages: Message[];
  found_oldest: boolean;
  found_newest: boolean;
}

/**
 * The first page arrived: its messages with every change that came meanwhile applied again in
 * order, live messages included (they join only when the page reaches the present).
 */
export function firstPageArrived(list: MessageList, page: FetchedPage): MessageList {
  const arrived: MessageList = { view: list.view, messages: mergeMessages([], page.messages), foundOldest: page.found_oldest, foundNewest: page.found_newest, loading: false };
  return (list.changedWhileLoading ?? []).reduce((shown, apply) => apply(shown), arrived);
}

/** An older page arrived (scrolling back): merged, never replacing what is shown. */
export function olderPageArrived(list: MessageList, page: FetchedPage): MessageList {
  return { ...list, messages: mergeMessages(list.messages, page.messages), foundOldest: page.found_oldest, loading: false };
}

/** Adds fetched or live messages, keeping IDs unique and ascending. */
export function mergeMessages(existing: readonly Message[], incoming: readonly Message[]): Message[] {
  const byId = new Map(existing.map((message) => [message.id, message]));
  for (const message of incoming) byId.set(message.id, message);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

function mapMessages(list: MessageList, ids: ReadonlySet<number>, change: (message: Message) => Message): MessageList {
  if (!list.messages.some((message) => ids.has(message.id))) return list;
  return { ...list, messages: list.messages.map((message) => (ids.has(message.id) ? change(message) : message)) };
}

export function addLiveMessage(list: MessageList, message: Message, ownId: number): MessageList {
  if (!messageMatchesView(list.view, message, ownId)) return list;
  return change(list, (shown) => (shown.foundNewest || shown.firstPage ? { ...shown, messages: mergeMessages(shown.messages, [message]) } : shown));
}

export function removeMessages(list: MessageList, ids: readonly number[]): MessageList {
  const gone = new Set(ids);
  return change(list, (shown) => {
    if (!shown.messages.some((message) => gone.has(message.id))) return shown;
    return { ...shown, messages: shown.messages.filter((message) => !gone.has(message.id)) };
  });
}

export interface MessageUpdate {
  message_id: number;
  message_ids: number[];
  edit_timestamp?: number;
  rendering_only?: boolean;
  rendered_content?: string;
  subject?: string;
  new_stream_id?: number;
}

/** An edit (new content) or a move (new topic or channel); a moved message leaves a view it no longer matches. */
export function updateMessages(list: MessageList, update: MessageUpdate, ownId: number): MessageList {
  return change(list, (shown) => updateShown(shown, update, ownId));
}

function updateShown(list: MessageList, update: MessageUpdate, ownId: number): MessageList {
  const ids = new Set(update.message_ids.length > 0 ? update.message_ids : [update.message_id]);
  const moved = update.subject !== undefined || update.new_stream_id !== undefined;
  const edited = mapMessages(list, ids, (message) => {
    const next = { ...message };
    if (update.rendered_content !== undefined && message.id === update.message_id) {
      next.content = update.rendered_content;
      if (!update.rendering_only && update.edit_timestamp !== undefined) next.last_edit_timestamp = update.edit_timestamp;
    }
    if (update.subject !== undefined) next.subject = update.subject;
    if (update.new_stream_id !== undefined) next.stream_id = update.new_stream_id;
    if (moved && update.edit_timestamp !== undefined) next.last_moved_timestamp = update.edit_timestamp;
    return next;
  });
  if (!moved || list.view.kind === 'search') return edited;
  return { ...edited, messages: edited.messages.filter((message) => !ids.has(message.id) || messageMatchesView(list.view, message, ownId)) };
}

export function changeReaction(list: MessageList, op: 'add' | 'remove', messageId: number, reaction: Reaction): MessageList {
  return change(list, (shown) => reactionShown(shown, op, messageId, reaction));
}

function reactionShown(list: MessageList, op: 'add' | 'remove', messageId: number, reaction: Reaction): MessageList {
  return mapMessages(list, new Set([messageId]), (message) => {
    const others = message.reactions.filter(
      (existing) => !(existing.user_id === reaction.user_id && existing.emoji_code === reaction.emoji_code && existing.reaction_type === reaction.reaction_type),
    );
    return { ...message, reactions: op === 'add' ? [...others, reaction] : others };
  });
}

/** A flag added or removed; `all` applies it to every message (mark all as read). */
export function changeFlag(list: MessageList, op: 'add' | 'remove', flag: string, ids: readonly number[], all: boolean): MessageList {
  return change(list, (shown) => flagShown(shown, op, flag, ids, all));
}

function flagShown(list: MessageList, op: 'add' | 'remove', flag: string, ids: readonly number[], all: boolean): MessageList {
  const targets = all ? new Set(list.messages.map((message) => message.id)) : new Set(ids);
  return mapMessages(list, targets, (message) => {
    const without = message.flags.filter((existing) => existing !== flag);
    return { ...message, flags: op === 'add' ? [...without, flag] : without };
  });
}

/** Reactions grouped by emoji, in first-reacted order, for display. */
export interface ReactionGroup {
  emojiName: string;
  emojiCode: string;
  reactionType: string;
  userIds: number[];
}

export function groupReactions(reactions: readonly Reaction[]): ReactionGroup[] {
  const groups = new Map<string, ReactionGroup>();
  for (const reaction of reactions) {
    const key = `${reaction.reaction_type}:${reaction.emoji_code}`;
    const group = groups.get(key) ?? { emojiName: reaction.emoji_name, emojiCode: reaction.emoji_code, reactionType: reaction.reaction_type, userIds: [] };
    group.userIds.push(reaction.user_id);
    groups.set(key, group);
  }
  return [...groups.values()];
}
