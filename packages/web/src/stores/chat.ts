/**
 * Everything the app knows about the signed-in user's world, as small stores built from one
 * register answer, and `applyEvent`, which keeps each of them live from the event queue.
 */
import { createStore, type Store } from '../lib/store';
import { type MessageList, addLiveMessage, changeFlag, changeReaction, emptyList, removeMessages, updateMessages } from './message-list';
import { type PresenceState, applyPresences, presenceFromMap } from './presence';
import { type TopicsState, bumpTopic, forgetChannel } from './topics';
import { type TypingEventLike, type TypingState, applyTyping } from './typing';
import type { Message, Person, Subscription } from './types';
import { type UnreadState, addMessage, dmKey, moveIds, removeIds, restoreIds, unreadFromRegister } from './unread';
import { dmPartners } from '../narrow/matches';

/** The register fields the app reads (the answer has many more). */
export interface RegisterSnapshot {
  user_id?: number;
  realm_users?: unknown[];
  realm_non_active_users?: unknown[];
  cross_realm_bots?: unknown[];
  subscriptions?: unknown[];
  unread_msgs?: unknown;
  presences?: unknown;
  realm_emoji?: unknown;
  user_settings?: unknown;
  [field: string]: unknown;
}

/** Realm settings and the user's own settings, as register gave them and events changed them. */
export type Settings = Record<string, unknown>;

export interface RealmEmoji {
  id: string;
  name: string;
  source_url: string;
  deactivated: boolean;
}

export interface Chat {
  ownId: number;
  people: Store<ReadonlyMap<number, Person>>;
  subscriptions: Store<ReadonlyMap<number, Subscription>>;
  unread: Store<UnreadState>;
  topics: Store<TopicsState>;
  typing: Store<TypingState>;
  presence: Store<PresenceState>;
  realm: Store<Settings>;
  userSettings: Store<Settings>;
  realmEmoji: Store<Readonly<Record<string, RealmEmoji>>>;
  messageList: Store<MessageList>;
  drafts: Store<ReadonlyMap<number, Draft>>;
  /** Direct conversations (key: the other participants' IDs, as unread.ts keys them) and their newest message ID. */
  dmConversations: Store<ReadonlyMap<string, number>>;
}

/** A draft as `/drafts` keeps it: `to` is the channel's ID, or the DM's recipients. */
export interface Draft {
  id: number;
  type: 'stream' | 'private';
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

const REALM_PREFIX = 'realm_';

function realmSettings(state: RegisterSnapshot): Settings {
  const realm: Settings = {};
  for (const [key, value] of Object.entries(state)) if (key.startsWith(REALM_PREFIX)) realm[key.slice(REALM_PREFIX.length)] = value;
  for (const key of ['max_message_length', 'max_topic_length', 'max_file_upload_size_mib', 'is_admin', 'is_owner', 'is_moderator', 'is_guest']) {
    realm[key] = state[key];
  }
  return realm;
}

export function createChat(state: RegisterSnapshot): Chat {
  const ownId = state.user_id ?? 0;
  const everyone = [...(state.realm_users ?? []), ...(state.realm_non_active_users ?? []), ...(state.cross_realm_bots ?? [])] as Person[];
  return {
    ownId,
    people: createStore<ReadonlyMap<number, Person>>(new Map(everyone.map((person) => [person.user_id, person]))),
    subscriptions: createStore<ReadonlyMap<number, Subscription>>(
      new Map(((state.subscriptions ?? []) as Subscription[]).map((sub) => [sub.stream_id, sub])),
    ),
    unread: createStore(unreadFromRegister(state.unread_msgs as Parameters<typeof unreadFromRegister>[0], ownId)),
    topics: createStore<TopicsState>(new Map()),
    typing: createStore<TypingState>(new Map()),
    presence: createStore(presenceFromMap(state.presences as Parameters<typeof presenceFromMap>[0])),
    realm: createStore(realmSettings(state)),
    userSettings: createStore({ ...((state.user_settings as Settings | undefined) ?? {}) }),
    realmEmoji: createStore({ ...((state.realm_emoji as Record<string, RealmEmoji> | undefined) ?? {}) }),
    messageList: createStore(emptyList({ kind: 'feed' })),
    dmConversations: createStore<ReadonlyMap<string, number>>(
      new Map(
        ((state.recent_private_conversations ?? []) as Array<{ user_ids: number[]; max_message_id: number }>).map((conversation) => [
          dmKey(conversation.user_ids, ownId),
          conversation.max_message_id,
        ]),
      ),
    ),
    drafts: createStore<ReadonlyMap<number, Draft>>(new Map(((state.drafts ?? []) as Draft[]).map((draft) => [draft.id, draft]))),
  };
}

/** An event off the queue, read loosely: each branch below reads the fields of its type. */
// biome-ignore lint/suspicious/noExplicitAny: events are a wide union; each case reads its own fields
export type LooseEvent = { type: string; [field: string]: any };

export function applyEvent(chat: Chat, event: LooseEvent, now = Date.now()): void {
  const { ownId } = chat;
  switch (event.type) {
    case 'message': {
      const message = { ...(event.message as Message), flags: event.flags ?? [] };
      chat.messageList.update((list) => addLiveMessage(list, message, ownId));
      chat.unread.update((unread) => addMessage(unread, message, message.flags, ownId));
      if (message.type === 'stream') chat.topics.update((topics) => bumpTopic(topics, message.stream_id!, message.subject, message.id));
      else chat.dmConversations.update((conversations) => new Map(conversations).set(dmPartners(message, ownId).join(','), message.id));
      // A message ends its sender's typing indication.
      chat.typing.update((typing) => {
        let next = typing;
        for (const [key, typists] of typing) {
          if (!typists.has(message.sender_id)) continue;
          const rest = new Map(typists);
          rest.delete(message.sender_id);
          next = new Map(next);
          if (rest.size > 0) (next as Map<string, ReadonlyMap<number, number>>).set(key, rest);
          else (next as Map<string, ReadonlyMap<number, number>>).delete(key);
        }
        return next;
      });
      return;
    }
    case 'update_message': {
      chat.messageList.update((list) => updateMessages(list, event as unknown as Parameters<typeof updateMessages>[1], ownId));
      if (event.subject !== undefined || event.new_stream_id !== undefined) {
        chat.unread.update((unread) => moveIds(unread, event.message_ids, event.new_stream_id, event.subject));
        if (event.stream_id !== undefined) chat.topics.update((topics) => forgetChannel(topics, event.stream_id));
        if (event.new_stream_id !== undefined) chat.topics.update((topics) => forgetChannel(topics, event.new_stream_id));
      }
      return;
    }
    case 'delete_message': {
      const ids: number[] = event.message_ids ?? [event.message_id];
      chat.messageList.update((list) => removeMessages(list, ids));
      chat.unread.update((unread) => removeIds(unread, ids));
      return;
    }
    case 'reaction':
      chat.messageList.update((list) =>
        changeReaction(list, event.op, event.message_id, {
          emoji_name: event.emoji_name,
          emoji_code: event.emoji_code,
          reaction_type: event.reaction_type,
          user_id: event.user_id,
        }),
      );
      return;
    case 'update_message_flags': {
      const op: 'add' | 'remove' = event.op ?? event.operation;
      chat.messageList.update((list) => changeFlag(list, op, event.flag, event.messages, event.all));
      if (event.flag === 'read') {
        if (op === 'add') chat.unread.update((unread) => (event.all ? unreadFromRegister(undefined, ownId) : removeIds(unread, event.messages)));
        else chat.unread.update((unread) => restoreIds(unread, event.message_details ?? {}, ownId));
      }
      return;
    }
    case 'typing':
      chat.typing.update((typing) => applyTyping(typing, event as unknown as TypingEventLike, ownId, now));
      return;
    case 'presence':
      if (event.presences) chat.presence.update((presence) => applyPresences(presence, event.presences));
      return;
    case 'subscription':
      applySubscriptionEvent(chat, event);
      return;
    case 'stream':
      if (event.op === 'update') {
        chat.subscriptions.update((subs) => patchSubscription(subs, event.stream_id, { [event.property]: event.value }));
      }
      return;
    case 'realm_user':
      applyRealmUserEvent(chat, event);
      return;
    case 'realm':
      if (event.op === 'update') chat.realm.update((realm) => ({ ...realm, [event.property]: event.value }));
      if (event.op === 'update_dict') chat.realm.update((realm) => ({ ...realm, ...event.data }));
      return;
    case 'realm_emoji':
      if (event.op === 'update') chat.realmEmoji.set({ ...event.realm_emoji });
      return;
    case 'drafts':
      chat.drafts.update((drafts) => {
        const next = new Map(drafts);
        if (event.op === 'add') for (const draft of event.drafts as Draft[]) next.set(draft.id, draft);
        if (event.op === 'update') next.set(event.draft.id, event.draft);
        if (event.op === 'remove') next.delete(event.draft_id);
        return next;
      });
      return;
    case 'user_settings':
      if (event.op === 'update') chat.userSettings.update((settings) => ({ ...settings, [event.property]: event.value }));
      return;
  }
}

function patchSubscription(subs: ReadonlyMap<number, Subscription>, channelId: number, patch: Partial<Subscription>): ReadonlyMap<number, Subscription> {
  const sub = subs.get(channelId);
  return sub ? new Map(subs).set(channelId, { ...sub, ...patch }) : subs;
}

function applySubscriptionEvent(chat: Chat, event: LooseEvent): void {
  switch (event.op) {
    case 'add':
      chat.subscriptions.update((subs) => {
        const next = new Map(subs);
        for (const sub of event.subscriptions as Subscription[]) next.set(sub.stream_id, sub);
        return next;
      });
      return;
    case 'remove':
      chat.subscriptions.update((subs) => {
        const next = new Map(subs);
        for (const sub of event.subscriptions as Array<{ stream_id: number }>) next.delete(sub.stream_id);
        return next;
      });
      return;
    case 'update':
      chat.subscriptions.update((subs) => patchSubscription(subs, event.stream_id, { [event.property]: event.value }));
      return;
  }
}

function applyRealmUserEvent(chat: Chat, event: LooseEvent): void {
  const person = event.person as Partial<Person> & { user_id: number };
  switch (event.op) {
    case 'add':
      chat.people.update((people) => new Map(people).set(person.user_id, person as Person));
      return;
    case 'update':
      chat.people.update((people) => {
        const existing = people.get(person.user_id);
        if (!existing) return people;
        const { new_email, ...fields } = person as Partial<Person> & { user_id: number; new_email?: string };
        return new Map(people).set(person.user_id, { ...existing, ...fields, ...(new_email ? { email: new_email } : {}) });
      });
      return;
    case 'remove':
      chat.people.update((people) => {
        const existing = people.get(person.user_id);
        return existing ? new Map(people).set(person.user_id, { ...existing, is_active: false }) : people;
      });
      return;
  }
}
