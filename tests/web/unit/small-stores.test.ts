import { describe, expect, it, vi } from 'vitest';
import { groupConversations } from '../../../packages/web/src/lib/conversations';
import { conversationName } from '../../../packages/web/src/lib/names';
import { nextUnreadTopic } from '../../../packages/web/src/lib/next-unread';
import { canDelete, canEdit, canMoveTopic } from '../../../packages/web/src/lib/permissions';
import { createStore } from '../../../packages/web/src/lib/store';
import { addLiveMessage, changeFlag, changeReaction, emptyList, firstPageArrived, groupReactions, mergeMessages, olderPageArrived, removeMessages, updateMessages } from '../../../packages/web/src/stores/message-list';
import { presenceStatus } from '../../../packages/web/src/stores/presence';
import { bumpTopic, forgetChannel, setChannelTopics } from '../../../packages/web/src/stores/topics';
import { unreadFromRegister } from '../../../packages/web/src/stores/unread';
import { createChat } from '../../../packages/web/src/stores/chat';
import { BOB, DEE, GENERAL, OWN_ID, RANDOM, channelMessage, directMessage, registerFixture } from './fixtures/register';

describe('the store primitive', () => {
  it('tells subscribers of new values only, and unsubscribes', () => {
    const store = createStore(1);
    const heard = vi.fn();
    const unsubscribe = store.subscribe(heard);
    store.set(1);
    store.update((n) => n + 1);
    unsubscribe();
    store.set(5);
    expect(heard.mock.calls).toEqual([[2]]);
    expect(store.get()).toBe(5);
  });
});

describe('message lists', () => {
  it('merges pages and live messages by ID, ascending, without duplicates', () => {
    const a = channelMessage({ id: 1 });
    const b = channelMessage({ id: 2 });
    const c = channelMessage({ id: 3 });
    expect(mergeMessages([c, a], [b, a]).map((m) => m.id)).toEqual([1, 2, 3]);
    expect(emptyList({ kind: 'feed' })).toMatchObject({ messages: [], loading: true, foundNewest: false });
  });

  it('keeps live messages that arrive while the first page is on its way (the page may predate them)', () => {
    const view = { kind: 'channel' as const, channelId: GENERAL };
    let list = emptyList(view);
    const live = channelMessage({ id: 500 });
    list = addLiveMessage(list, live, OWN_ID);
    list = addLiveMessage(list, channelMessage({ id: 501, stream_id: RANDOM }), OWN_ID);
    expect(list.messages.map((m) => m.id)).toEqual([500]);
    const page = { messages: [channelMessage({ id: 498 }), channelMessage({ id: 499 })], found_oldest: true, found_newest: true };
    const arrived = firstPageArrived(list, page);
    expect(arrived.messages.map((m) => m.id)).toEqual([498, 499, 500]);
    expect(arrived).toMatchObject({ loading: false, foundNewest: true, foundOldest: true });
    expect(arrived.firstPage).toBeUndefined();
    // Once loaded, live messages still join; a page that includes the live one holds it once.
    expect(addLiveMessage(arrived, channelMessage({ id: 502 }), OWN_ID).messages.map((m) => m.id)).toEqual([498, 499, 500, 502]);
    expect(firstPageArrived(list, { ...page, messages: [...page.messages, live] }).messages.map((m) => m.id)).toEqual([498, 499, 500]);
  });

  it('a refetch of the open view (re-opening it) answered before a live message does not drop that message', () => {
    // The sender's own message: its event comes while GET /messages for the re-opened view is on
    // its way, and the answer was read before the message was stored.
    const view = { kind: 'channel' as const, channelId: GENERAL };
    const shown = firstPageArrived(emptyList(view), { messages: [channelMessage({ id: 1 }), channelMessage({ id: 2 })], found_oldest: true, found_newest: true });
    let reopened = emptyList(view);
    reopened = addLiveMessage(reopened, channelMessage({ id: 3, sender_id: OWN_ID }), OWN_ID);
    const arrived = firstPageArrived(reopened, { messages: shown.messages, found_oldest: true, found_newest: true });
    expect(arrived.messages.map((m) => m.id)).toEqual([1, 2, 3]);
    // The next send, after the page: appended, nothing lost.
    expect(addLiveMessage(arrived, channelMessage({ id: 4, sender_id: OWN_ID }), OWN_ID).messages.map((m) => m.id)).toEqual([1, 2, 3, 4]);
  });

  it('a message deleted while the first page is on its way stays deleted when an older page brings it', () => {
    let list = emptyList({ kind: 'channel', channelId: GENERAL });
    list = removeMessages(list, [2]);
    const arrived = firstPageArrived(list, { messages: [channelMessage({ id: 1 }), channelMessage({ id: 2 })], found_oldest: true, found_newest: true });
    expect(arrived.messages.map((m) => m.id)).toEqual([1]);
    expect(arrived.changedWhileLoading).toBeUndefined();
    // Once loaded, deletions remove as before and are not remembered.
    expect(removeMessages(arrived, [1])).toMatchObject({ messages: [] });
    expect(removeMessages(arrived, [1]).changedWhileLoading).toBeUndefined();
  });

  it('a reaction, an edit and a flag that come while the first page is on its way survive a page read before them', () => {
    const view = { kind: 'channel' as const, channelId: GENERAL };
    let list = emptyList(view);
    const thumbs = { user_id: BOB, emoji_code: '1f44d', emoji_name: 'thumbs_up', reaction_type: 'unicode_emoji' };
    list = changeReaction(list, 'add', 1, thumbs);
    list = updateMessages(list, { message_id: 2, message_ids: [2], rendered_content: '<p>edited</p>', edit_timestamp: 1_700_000_100 }, OWN_ID);
    list = changeFlag(list, 'add', 'starred', [1], false);
    const stale = { messages: [channelMessage({ id: 1 }), channelMessage({ id: 2 })], found_oldest: true, found_newest: true };
    const arrived = firstPageArrived(list, stale);
    expect(arrived.messages[0]).toMatchObject({ id: 1, reactions: [thumbs], flags: ['starred'] });
    expect(arrived.messages[1]).toMatchObject({ id: 2, content: '<p>edited</p>', last_edit_timestamp: 1_700_000_100 });
    // A page read after the changes already shows them: applying them again changes nothing.
    const fresh = { ...stale, messages: arrived.messages };
    expect(firstPageArrived(list, fresh).messages).toEqual(arrived.messages);
  });

  it('changes that came while loading apply in their order, so a live message after "mark all as read" stays unread', () => {
    let list = emptyList({ kind: 'channel', channelId: GENERAL });
    list = changeFlag(list, 'add', 'read', [], true);
    list = addLiveMessage(list, channelMessage({ id: 3 }), OWN_ID);
    list = changeReaction(list, 'remove', 1, { user_id: BOB, emoji_code: '2764', emoji_name: 'heart', reaction_type: 'unicode_emoji' });
    const heart = { user_id: BOB, emoji_code: '2764', emoji_name: 'heart', reaction_type: 'unicode_emoji' };
    const arrived = firstPageArrived(list, { messages: [channelMessage({ id: 1, reactions: [heart] })], found_oldest: true, found_newest: true });
    expect(arrived.messages.map((m) => [m.id, m.flags, m.reactions])).toEqual([
      [1, ['read'], []],
      [3, [], []],
    ]);
  });

  it('drops live messages kept meanwhile when the first page does not reach the present (they would leave a gap)', () => {
    const list = addLiveMessage(emptyList({ kind: 'feed' }), channelMessage({ id: 900 }), OWN_ID);
    const arrived = firstPageArrived(list, { messages: [channelMessage({ id: 10 })], found_oldest: false, found_newest: false });
    expect(arrived.messages.map((m) => m.id)).toEqual([10]);
    expect(addLiveMessage(arrived, channelMessage({ id: 901 }), OWN_ID)).toBe(arrived);
  });

  it('merges an older page into what is shown, live messages included', () => {
    const shown = { view: { kind: 'feed' as const }, messages: [channelMessage({ id: 20 }), channelMessage({ id: 30 })], foundOldest: false, foundNewest: true, loading: true };
    const merged = olderPageArrived(shown, { messages: [channelMessage({ id: 5 }), channelMessage({ id: 10 })], found_oldest: true, found_newest: false });
    expect(merged.messages.map((m) => m.id)).toEqual([5, 10, 20, 30]);
    expect(merged).toMatchObject({ foundOldest: true, foundNewest: true, loading: false });
  });

  it('groups reactions by emoji with who reacted', () => {
    const reaction = (user_id: number, emoji_code: string, emoji_name: string) => ({ user_id, emoji_code, emoji_name, reaction_type: 'unicode_emoji' });
    expect(groupReactions([reaction(1, '1f44d', 'thumbs_up'), reaction(2, '2764', 'heart'), reaction(3, '1f44d', '+1')])).toEqual([
      { emojiName: 'thumbs_up', emojiCode: '1f44d', reactionType: 'unicode_emoji', userIds: [1, 3] },
      { emojiName: 'heart', emojiCode: '2764', reactionType: 'unicode_emoji', userIds: [2] },
    ]);
  });
});

describe('topics', () => {
  it('lists a channel newest first, bumps live topics (ignoring case), and forgets a channel', () => {
    let topics = setChannelTopics(new Map(), GENERAL, [{ name: 'a', max_id: 1 }, { name: 'b', max_id: 5 }]);
    expect(topics.get(GENERAL)!.map((t) => t.name)).toEqual(['b', 'a']);
    topics = bumpTopic(topics, GENERAL, 'A', 9);
    expect(topics.get(GENERAL)).toEqual([{ name: 'A', maxId: 9 }, { name: 'b', maxId: 5 }]);
    expect(bumpTopic(topics, RANDOM, 'x', 10)).toBe(topics);
    expect(forgetChannel(topics, GENERAL).has(GENERAL)).toBe(false);
    expect(forgetChannel(topics, RANDOM)).toBe(topics);
  });
});

describe('presence', () => {
  it('is active, idle or offline by the last timestamps', () => {
    expect(presenceStatus({ active_timestamp: 990, idle_timestamp: 990 }, 1000)).toBe('active');
    expect(presenceStatus({ active_timestamp: 100, idle_timestamp: 990 }, 1000)).toBe('idle');
    expect(presenceStatus({ active_timestamp: 100, idle_timestamp: 100 }, 1000)).toBe('offline');
    expect(presenceStatus(undefined, 1000)).toBe('offline');
  });
});

describe('navigation helpers', () => {
  it('n goes to the oldest unread topic other than the open one', () => {
    const unread = unreadFromRegister(registerFixture().unread_msgs as never, OWN_ID);
    expect(nextUnreadTopic(unread, { kind: 'feed' })).toEqual({ channelId: GENERAL, topic: 'lunch' });
    expect(nextUnreadTopic(unread, { kind: 'channel', channelId: GENERAL, topic: 'Lunch' })).toEqual({ channelId: RANDOM, topic: 'cats' });
    expect(nextUnreadTopic(unreadFromRegister(undefined, OWN_ID), { kind: 'feed' })).toBeUndefined();
  });

  it('groups recent conversations, most recent first, with their senders', () => {
    const conversations = groupConversations(
      [channelMessage({ id: 1, sender_id: BOB }), directMessage([DEE], { id: 2, sender_id: DEE }), channelMessage({ id: 3, subject: 'LUNCH', sender_id: OWN_ID })],
      OWN_ID,
    );
    expect(conversations.map((c) => [c.key, c.lastId, c.senders])).toEqual([
      [`c${GENERAL}:lunch`, 3, [BOB, OWN_ID]],
      [`d${DEE}`, 2, [DEE]],
    ]);
  });

  it('names conversations by their people', () => {
    const people = createChat(registerFixture()).people.get();
    expect(conversationName(people, [BOB])).toBe('Bob Builder');
    expect(conversationName(people, [BOB, DEE, 77])).toBe('Bob Builder, Dee Lee and User 77');
  });
});

describe('message permissions', () => {
  const now = 1_700_000_000;
  const mine = channelMessage({ sender_id: OWN_ID, timestamp: now - 100 });
  it('edits own messages within the realm limit, when editing is allowed', () => {
    expect(canEdit(mine, OWN_ID, { message_content_edit_limit_seconds: 600 }, now)).toBe(true);
    expect(canEdit(mine, OWN_ID, { message_content_edit_limit_seconds: 60 }, now)).toBe(false);
    expect(canEdit(mine, OWN_ID, { message_content_edit_limit_seconds: null }, now)).toBe(true);
    expect(canEdit(mine, OWN_ID, { allow_message_editing: false }, now)).toBe(false);
    expect(canEdit(channelMessage(), OWN_ID, {}, now)).toBe(false);
  });

  it('deletes own messages within the limit; administrators any message', () => {
    expect(canDelete(mine, OWN_ID, { message_content_delete_limit_seconds: 60 }, now)).toBe(false);
    expect(canDelete(mine, OWN_ID, {}, now)).toBe(true);
    expect(canDelete(channelMessage(), OWN_ID, { is_admin: true }, now)).toBe(true);
    expect(canDelete(channelMessage(), OWN_ID, {}, now)).toBe(false);
  });

  it('offers topic moves on channel messages to non-guests', () => {
    expect(canMoveTopic(mine, {})).toBe(true);
    expect(canMoveTopic(mine, { is_guest: true })).toBe(false);
    expect(canMoveTopic(directMessage([BOB]), {})).toBe(false);
  });
});
