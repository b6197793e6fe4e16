/** POST /messages, GET /messages, GET /messages/{id}: the happy paths end to end in the core. */
import { doRegister, doSendMessage, doSubscribe, getEvents, getMessage, getMessages } from '@teamchat/core';
import { expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';

it('sends a channel message with a mention and a direct message, and reads them back', async () => {
  const w = await makeWorld({ config: { timers: false } });
  const bob = await w.addUser({ email: 'bob@example.com', fullName: 'Bob Builder' });
  must(await doSubscribe(w.ctx, w.as(w.owner), { subscriptions: [{"name":"general"}], principals: [w.owner.id,bob.id] }));
  const queue = must(await doRegister(w.ctx, w.as(bob), { event_types: ["message"], apply_markdown: true })) as { queue_id: string };

  const sent = must(await doSendMessage(w.ctx, w.as(w.owner), { type: 'stream', to: 'general', topic: 'hello', content: 'Hi @**Bob Builder**!' }));
  expect(sent).toEqual({
    id: 1,
    message_url: 'http://chat.example.com/#narrow/channel/1-general/topic/hello/near/1',
    message_link: '[#general > hello @ 💬](http://chat.example.com/#narrow/channel/1-general/topic/hello/near/1)',
    // The owner started the topic: the reference's default follows it (automatically_follow_topics_policy 3).
    automatic_new_visibility_policy: 3,
  });
  const { events } = must(await getEvents(w.ctx, w.as(bob), { queue_id: queue.queue_id, dont_block: true }));
  expect(events).toMatchObject([
    {
      type: 'message',
      flags: ['mentioned'],
      message: {
        id: 1,
        type: 'stream',
        stream_id: 1,
        display_recipient: 'general',
        subject: 'hello',
        content: '<p>Hi <span class="user-mention" data-user-id="2">@Bob Builder</span>!</p>',
        content_type: 'text/html',
      },
    },
  ]);

  const dm = must(await doSendMessage(w.ctx, w.as(bob), { type: 'direct', to: `[${w.owner.id}]`, content: 'psst' }));
  expect(dm).toEqual({ id: 2, message_url: 'http://chat.example.com/#narrow/dm/1,2-dm/near/2', message_link: 'http://chat.example.com/#narrow/dm/1,2-dm/near/2' });

  const page = must(await getMessages(w.ctx, w.as(bob), { anchor: 'newest', num_before: 10, num_after: 0 }));
  // "newest" resolves to the reference's LARGER_THAN_MAX_MESSAGE_ID.
  expect(page).toMatchObject({ anchor: 10_000_000_000_000_000, found_anchor: false, found_oldest: true, found_newest: true, history_limited: false });
  expect((page as { messages: Array<{ id: number; flags: string[] }> }).messages.map((m) => [m.id, m.flags])).toEqual([
    [1, ['mentioned']],
    [2, ['read']],
  ]);
  const unread = must(await getMessages(w.ctx, w.as(bob), { anchor: 'oldest', num_before: 0, num_after: 10, narrow: [["is","unread"]] }));
  expect((unread as { messages: Array<{ id: number }> }).messages.map((m) => m.id)).toEqual([1]);

  const registered = must(await doRegister(w.ctx, w.as(bob), { fetch_event_types: ["message","update_message_flags"] }));
  expect(registered.max_message_id).toBe(2);
  expect(registered.unread_msgs).toEqual({
    count: 1,
    pms: [],
    streams: [{ stream_id: 1, topic: 'hello', unread_message_ids: [1] }],
    huddles: [],
    mentions: [1],
    old_unreads_missing: false,
  });
  expect(must(await getMessage(w.ctx, w.as(w.owner), { message_id: 2 }))).toMatchObject({ raw_content: 'psst', message: { id: 2, type: 'private' } });
});

it('reads a public channel message the user never received, through GET /messages/{id} and message_ids', async () => {
  const w = await makeWorld({ config: { timers: false } });
  const carol = await w.addUser({ email: 'carol@example.com', fullName: 'Carol' });
  must(await doSubscribe(w.ctx, w.as(w.owner), { subscriptions: [{"name":"announce"}] }));
  const sent = must(await doSendMessage(w.ctx, w.as(w.owner), { type: 'stream', to: 'announce', topic: 'news', content: 'big news' }));
  const single = must(await getMessage(w.ctx, w.as(carol), { message_id: sent.id })) as { message: { id: number; flags: string[] } };
  expect(single.message).toMatchObject({ id: sent.id, flags: ['read', 'historical'] });
  const byIds = must(await getMessages(w.ctx, w.as(carol), { message_ids: [sent.id] })) as { messages: Array<{ id: number; flags: string[] }> };
  expect(byIds.messages.map((m) => [m.id, m.flags])).toEqual([[sent.id, ['read', 'historical']]]);
  // Through a window (flags read in its walk): without a copy read, historical; with one, its own flags.
  const channel = { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'channel', operand: 'announce' }] };
  const page = (user: typeof carol) => getMessages(w.ctx, w.as(user), channel).then((got) => must(got) as { messages: Array<{ id: number; flags: string[] }> });
  expect((await page(carol)).messages.map((m) => [m.id, m.flags])).toEqual([[sent.id, ['read', 'historical']]]);
  expect((await page(w.owner)).messages.map((m) => [m.id, m.flags])).toEqual([[sent.id, ['read']]]);
  must(await doSubscribe(w.ctx, w.as(w.owner), { subscriptions: [{"name":"secret"}], invite_only: true }));
  const secret = must(await doSendMessage(w.ctx, w.as(w.owner), { type: 'stream', to: 'secret', topic: 'x', content: 'hush' }));
  expect((await getMessage(w.ctx, w.as(carol), { message_id: secret.id }))._unsafeUnwrapErr()).toMatchObject({ msg: 'Invalid message(s)' });
  const hidden = must(await getMessages(w.ctx, w.as(carol), { message_ids: [secret.id] })) as { messages: unknown[] };
  expect(hidden.messages).toEqual([]);
});
