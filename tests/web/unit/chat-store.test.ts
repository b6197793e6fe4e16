import { describe, expect, it } from 'vitest';
import { type Chat, applyEvent, createChat } from '../../../packages/web/src/stores/chat';
import { countUnread, topicKey } from '../../../packages/web/src/stores/unread';
import { typistsIn, topicConversation } from '../../../packages/web/src/stores/typing';
import { setChannelTopics } from '../../../packages/web/src/stores/topics';
import { BOB, DEE, GENERAL, OWN_ID, RANDOM, channelMessage, directMessage, registerFixture } from './fixtures/register';

function openView(chat: Chat, view: Parameters<Chat['messageList']['set']>[0]['view'], messages = [] as ReturnType<typeof channelMessage>[]) {
  chat.messageList.set({ view, messages, foundOldest: true, foundNewest: true, loading: false });
}

describe('the chat built from register', () => {
  it('knows the people, subscriptions, unread counts, presence and settings', () => {
    const chat = createChat(registerFixture());
    expect(chat.ownId).toBe(OWN_ID);
    expect([...chat.people.get().keys()]).toEqual([OWN_ID, BOB, DEE]);
    expect(chat.subscriptions.get().get(GENERAL)?.name).toBe('general');
    const counts = countUnread(chat.unread.get());
    expect(counts.total).toBe(4);
    expect(counts.byChannel.get(GENERAL)).toBe(2);
    expect(counts.byTopic.get(topicKey(RANDOM, 'cats'))).toBe(1);
    expect(counts.byDm.get(String(BOB))).toBe(1);
    expect(counts.mentions).toBe(1);
    expect(chat.presence.get().get(BOB)).toEqual({ active_timestamp: 1000, idle_timestamp: 1000 });
    expect(chat.realm.get().name).toBe('Test Org');
    expect(chat.realm.get().is_admin).toBe(true);
    expect(chat.userSettings.get().color_scheme).toBe(1);
  });

  it('reads huddles and empty sections', () => {
    const state = registerFixture();
    state.unread_msgs = { count: 1, streams: [], pms: [], huddles: [{ user_ids_string: `${OWN_ID},${BOB},${DEE}`, unread_message_ids: [7] }], mentions: [] };
    expect(countUnread(createChat(state).unread.get()).byDm.get(`${BOB},${DEE}`)).toBe(1);
    const bare = createChat({ user_id: 5 });
    expect(countUnread(bare.unread.get()).total).toBe(0);
    expect(bare.people.get().size).toBe(0);
  });
});

describe('events keep the stores live', () => {
  it('a new message joins the open view it matches, counts as unread and bumps its topic', () => {
    const chat = createChat(registerFixture());
    openView(chat, { kind: 'channel', channelId: GENERAL });
    chat.topics.update((topics) => setChannelTopics(topics, GENERAL, [{ name: 'old', max_id: 5 }]));
    const message = channelMessage({ subject: 'news' });
    applyEvent(chat, { type: 'message', message, flags: [] });
    expect(chat.messageList.get().messages.map((m) => m.id)).toEqual([message.id]);
    expect(countUnread(chat.unread.get()).byTopic.get(topicKey(GENERAL, 'news'))).toBe(1);
    expect(chat.topics.get().get(GENERAL)?.map((topic) => topic.name)).toEqual(['news', 'old']);

    applyEvent(chat, { type: 'message', message: channelMessage({ stream_id: RANDOM }), flags: ['read'] });
    expect(chat.messageList.get().messages).toHaveLength(1);
    expect(countUnread(chat.unread.get()).total).toBe(5);
  });

  it('a message does not join a view that has not reached the present (it would leave a gap)', () => {
    const chat = createChat(registerFixture());
    chat.messageList.set({ view: { kind: 'feed' }, messages: [], foundOldest: false, foundNewest: false, loading: false });
    applyEvent(chat, { type: 'message', message: channelMessage(), flags: [] });
    expect(chat.messageList.get().messages).toHaveLength(0);
  });

  it('edits change content and mark the message edited; moves leave views they no longer match', () => {
    const chat = createChat(registerFixture());
    const message = channelMessage();
    const other = channelMessage();
    openView(chat, { kind: 'channel', channelId: GENERAL, topic: 'lunch' }, [message, other]);
    applyEvent(chat, { type: 'update_message', user_id: BOB, message_id: message.id, message_ids: [message.id], rendering_only: false, edit_timestamp: 1_700_000_100, rendered_content: '<p>edited</p>', flags: [] });
    expect(chat.messageList.get().messages[0]).toMatchObject({ content: '<p>edited</p>', last_edit_timestamp: 1_700_000_100 });

    applyEvent(chat, { type: 'update_message', user_id: BOB, message_id: other.id, message_ids: [other.id], rendering_only: false, edit_timestamp: 1_700_000_200, stream_id: GENERAL, orig_subject: 'lunch', subject: 'dinner', flags: [] });
    expect(chat.messageList.get().messages.map((m) => m.id)).toEqual([message.id]);
  });

  it('a rendering-only update (a link preview) does not mark a message edited', () => {
    const chat = createChat(registerFixture());
    const message = channelMessage();
    openView(chat, { kind: 'feed' }, [message]);
    applyEvent(chat, { type: 'update_message', user_id: BOB, message_id: message.id, message_ids: [message.id], rendering_only: true, edit_timestamp: 5, rendered_content: '<p>preview</p>', flags: [] });
    expect(chat.messageList.get().messages[0]!.content).toBe('<p>preview</p>');
    expect(chat.messageList.get().messages[0]!.last_edit_timestamp).toBeUndefined();
  });

  it('moved unread messages are counted where they now are', () => {
    const chat = createChat(registerFixture());
    applyEvent(chat, { type: 'update_message', user_id: OWN_ID, message_id: 100, message_ids: [100, 101], rendering_only: false, edit_timestamp: 9, stream_id: GENERAL, new_stream_id: RANDOM, subject: 'moved', flags: [] });
    const counts = countUnread(chat.unread.get());
    expect(counts.byTopic.get(topicKey(RANDOM, 'moved'))).toBe(2);
    expect(counts.byChannel.get(GENERAL)).toBeUndefined();
  });

  it('deletions remove messages and their unread entries, in both event shapes', () => {
    const chat = createChat(registerFixture());
    const message = channelMessage();
    openView(chat, { kind: 'feed' }, [message]);
    applyEvent(chat, { type: 'delete_message', message_type: 'stream', stream_id: GENERAL, topic: 'lunch', message_ids: [message.id, 100] });
    expect(chat.messageList.get().messages).toHaveLength(0);
    applyEvent(chat, { type: 'delete_message', message_type: 'private', message_id: 103 });
    expect(countUnread(chat.unread.get()).total).toBe(2);
  });

  it('reactions are added once per user and emoji, and removed', () => {
    const chat = createChat(registerFixture());
    const message = channelMessage();
    openView(chat, { kind: 'feed' }, [message]);
    const reaction = { type: 'reaction', op: 'add', user_id: BOB, message_id: message.id, emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' };
    applyEvent(chat, reaction);
    applyEvent(chat, reaction);
    applyEvent(chat, { ...reaction, user_id: DEE });
    expect(chat.messageList.get().messages[0]!.reactions.map((r) => r.user_id)).toEqual([BOB, DEE]);
    applyEvent(chat, { ...reaction, op: 'remove' });
    expect(chat.messageList.get().messages[0]!.reactions.map((r) => r.user_id)).toEqual([DEE]);
  });

  it('flags: read clears unread, unread restores it from message_details, starred shows on the message', () => {
    const chat = createChat(registerFixture());
    const message = channelMessage({ id: 100 });
    openView(chat, { kind: 'feed' }, [message]);
    applyEvent(chat, { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [100, 103], all: false });
    expect(countUnread(chat.unread.get()).total).toBe(2);
    expect(chat.messageList.get().messages[0]!.flags).toContain('read');
    applyEvent(chat, {
      type: 'update_message_flags',
      op: 'remove',
      operation: 'remove',
      flag: 'read',
      messages: [100, 103],
      all: false,
      message_details: { 100: { type: 'stream', stream_id: GENERAL, topic: 'lunch', unmuted_stream_msg: true, mentioned: true }, 103: { type: 'private', user_ids: [BOB] } },
    });
    const counts = countUnread(chat.unread.get());
    expect(counts.total).toBe(4);
    expect(counts.byDm.get(String(BOB))).toBe(1);
    expect(chat.messageList.get().messages[0]!.flags).not.toContain('read');
    applyEvent(chat, { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'starred', messages: [100], all: false });
    expect(chat.messageList.get().messages[0]!.flags).toContain('starred');
    applyEvent(chat, { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [], all: true });
    expect(countUnread(chat.unread.get()).total).toBe(0);
  });

  it('typing starts, expires and stops; a message from the typist ends it', () => {
    const chat = createChat(registerFixture());
    const key = topicConversation(GENERAL, 'lunch');
    const start = { type: 'typing', op: 'start', message_type: 'stream', sender: { user_id: BOB, email: 'bob@example.com' }, stream_id: GENERAL, topic: 'Lunch' };
    applyEvent(chat, start, 1000);
    expect(typistsIn(chat.typing.get(), key, OWN_ID, 2000)).toEqual([BOB]);
    expect(typistsIn(chat.typing.get(), key, OWN_ID, 1000 + 60_000)).toEqual([]);
    applyEvent(chat, { ...start, op: 'stop' }, 3000);
    expect(chat.typing.get().size).toBe(0);
    applyEvent(chat, start, 4000);
    applyEvent(chat, { type: 'message', message: channelMessage(), flags: [] });
    expect(chat.typing.get().size).toBe(0);
    applyEvent(chat, { type: 'typing', op: 'start', message_type: 'direct', sender: { user_id: BOB, email: '' }, recipients: [{ user_id: BOB }, { user_id: OWN_ID }] }, 5000);
    expect(typistsIn(chat.typing.get(), `dm:${BOB}`, OWN_ID, 5000)).toEqual([BOB]);
  });

  it('presence, subscriptions, people, realm, emoji, drafts and settings follow their events', () => {
    const chat = createChat(registerFixture());
    applyEvent(chat, { type: 'presence', presences: { [String(DEE)]: { active_timestamp: 50, idle_timestamp: 60 } } });
    expect(chat.presence.get().get(DEE)).toEqual({ active_timestamp: 50, idle_timestamp: 60 });

    applyEvent(chat, { type: 'subscription', op: 'add', subscriptions: [{ stream_id: 12, name: 'new', color: '#000', description: '', invite_only: false }] });
    applyEvent(chat, { type: 'subscription', op: 'update', stream_id: 12, property: 'color', value: '#fff' });
    applyEvent(chat, { type: 'stream', op: 'update', stream_id: 12, name: 'new', property: 'name', value: 'renamed' });
    expect(chat.subscriptions.get().get(12)).toMatchObject({ color: '#fff', name: 'renamed' });
    applyEvent(chat, { type: 'subscription', op: 'remove', subscriptions: [{ stream_id: 12, name: 'renamed' }] });
    expect(chat.subscriptions.get().has(12)).toBe(false);

    applyEvent(chat, { type: 'realm_user', op: 'add', person: { user_id: 9, full_name: 'Nina New', email: 'nina@example.com', is_active: true } });
    applyEvent(chat, { type: 'realm_user', op: 'update', person: { user_id: 9, full_name: 'Nina Renamed' } });
    applyEvent(chat, { type: 'realm_user', op: 'update', person: { user_id: 9, new_email: 'n@example.com' } });
    applyEvent(chat, { type: 'realm_user', op: 'remove', person: { user_id: 9, full_name: 'Nina Renamed' } });
    expect(chat.people.get().get(9)).toMatchObject({ full_name: 'Nina Renamed', email: 'n@example.com', is_active: false });

    applyEvent(chat, { type: 'realm', op: 'update', property: 'name', value: 'New Org' });
    applyEvent(chat, { type: 'realm', op: 'update_dict', property: 'default', data: { description: 'About us' } });
    expect(chat.realm.get()).toMatchObject({ name: 'New Org', description: 'About us' });

    applyEvent(chat, { type: 'realm_emoji', op: 'update', realm_emoji: { 1: { id: '1', name: 'party', source_url: '/e.png', deactivated: false } } });
    expect(chat.realmEmoji.get()['1']?.name).toBe('party');

    const draft = { id: 5, type: 'stream', to: [GENERAL], topic: 'lunch', content: 'hi', timestamp: 1 };
    applyEvent(chat, { type: 'drafts', op: 'add', drafts: [draft] });
    applyEvent(chat, { type: 'drafts', op: 'update', draft: { ...draft, content: 'hello' } });
    expect(chat.drafts.get().get(5)?.content).toBe('hello');
    applyEvent(chat, { type: 'drafts', op: 'remove', draft_id: 5 });
    expect(chat.drafts.get().size).toBe(0);

    applyEvent(chat, { type: 'user_settings', op: 'update', property: 'color_scheme', value: 2 });
    expect(chat.userSettings.get().color_scheme).toBe(2);
  });

  it('lists direct conversations from register and moves one to the top with each message', () => {
    const state = registerFixture();
    state.recent_private_conversations = [
      { user_ids: [BOB], max_message_id: 50 },
      { user_ids: [BOB, DEE], max_message_id: 40 },
      { user_ids: [], max_message_id: 30 },
    ];
    const chat = createChat(state);
    expect([...chat.dmConversations.get().entries()]).toEqual([[String(BOB), 50], [`${BOB},${DEE}`, 40], [String(OWN_ID), 30]]);
    const message = directMessage([DEE, BOB], { id: 60 });
    applyEvent(chat, { type: 'message', message, flags: ['read'] });
    expect(chat.dmConversations.get().get(`${BOB},${DEE}`)).toBe(60);
    applyEvent(chat, { type: 'message', message: channelMessage(), flags: [] });
    expect(chat.dmConversations.get().size).toBe(3);
  });

  it('ignores events it does not show, and direct messages to oneself file under oneself', () => {
    const chat = createChat(registerFixture());
    const before = { unread: chat.unread.get(), people: chat.people.get() };
    applyEvent(chat, { type: 'alert_words', alert_words: ['x'] });
    expect(chat.unread.get()).toBe(before.unread);
    expect(chat.people.get()).toBe(before.people);
    applyEvent(chat, { type: 'message', message: directMessage([]), flags: [] });
    expect(countUnread(chat.unread.get()).byDm.get(String(OWN_ID))).toBe(1);
  });
});
