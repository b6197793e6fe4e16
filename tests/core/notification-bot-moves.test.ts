/** The Notification Bot's breadcrumbs for topic and channel moves, and its resolve/unresolve notices. */
import { doUpdateMessage, doUpdateSettings, NOTIFICATION_BOT_EMAIL } from '@teamchat/core/internal';
import { expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { editWorld } from './message-edit-helpers.js';
import { expectBadRequest } from './fixtures.js';
import { history, storedBot } from './notification-bot-helpers.js';

type E = Awaited<ReturnType<typeof editWorld>>;
const move = (e: E, user: E['alice'], id: number, input: Record<string, string>) => doUpdateMessage(e.w.ctx, e.w.as(user), { message_id: id, ...input });

/** The bot's messages as `viewer` sees them: [channel, topic, content, read]. */
async function notices(e: E, viewer = e.owner) {
  const bot = await storedBot(e.w);
  return (await history(e.w, viewer))
    .filter((m) => m.sender_id === bot?.id)
    .map((m) => [m.display_recipient, m.subject, m.content, m.flags?.includes('read')]);
}

it('a whole-topic move: "moved here" in the new topic by default; "moved to" in the old one on request; read for the mover', async () => {
  const e = await editWorld();
  const a = await e.send(e.owner, 'general', 'lunch');
  await e.send(e.bob, 'general', 'lunch');
  const alice = `@_**Alice Adams|${e.alice.id}**`;
  must(await move(e, e.alice, a, { topic: 'brunch', propagate_mode: 'change_all' }));
  expect(await notices(e)).toEqual([['general', 'brunch', `This topic was moved here from #**general>lunch** by ${alice}.`, false]]);
  expect((await notices(e, e.alice)).map((n) => n[3])).toEqual([true]);

  must(await move(e, e.alice, a, { topic: 'dinner', propagate_mode: 'change_all', send_notification_to_old_thread: 'true' }));
  expect((await notices(e)).slice(1)).toEqual([
    ['general', 'dinner', `This topic was moved here from #**general>brunch** by ${alice}.`, false],
    ['general', 'brunch', `This topic was moved to #**general>dinner** by ${alice}.`, false],
  ]);
  const bot = (await storedBot(e.w))!;
  expect(bot.deliveryEmail).toBe(NOTIFICATION_BOT_EMAIL);
});

it('partial moves count the messages; one message is linked; a topic with earlier messages is not "this topic"', async () => {
  const e = await editWorld();
  const a = await e.send(e.owner, 'general', 'topic');
  const b = await e.send(e.owner, 'general', 'topic');
  await e.send(e.owner, 'general', 'topic');
  const alice = `@_**Alice Adams|${e.alice.id}**`;
  must(await move(e, e.alice, b, { topic: 'later', propagate_mode: 'change_later', send_notification_to_old_thread: 'true' }));
  must(await move(e, e.alice, a, { topic: 'one', send_notification_to_old_thread: 'true' }));
  const url = `http://chat.example.com/#narrow/channel/${e.general}-general/topic/one/near/${a}`;
  expect(await notices(e)).toEqual([
    ['general', 'later', `2 messages were moved here from #**general>topic** by ${alice}.`, false],
    ['general', 'topic', `2 messages were moved from this topic to #**general>later** by ${alice}.`, false],
    ['general', 'one', `[A message](${url}) was moved here from #**general>topic** by ${alice}.`, false],
    // The first breadcrumb stayed in the old topic, so this is not the whole topic.
    ['general', 'topic', `A message was moved from this topic to #**general>one** by ${alice}.`, false],
  ]);
  // Into a topic that already has messages: the count, even for the whole old topic.
  const c = await e.send(e.owner, 'general', 'merge');
  await e.send(e.owner, 'general', 'merge');
  must(await move(e, e.alice, c, { topic: 'later', propagate_mode: 'change_all', send_notification_to_new_thread: 'true' }));
  expect((await notices(e)).at(-1)).toEqual(['general', 'later', `2 messages were moved here from #**general>merge** by ${alice}.`, false]);
});

it('send_notification_to_new_thread=false sends nothing; a refused move sends nothing', async () => {
  // Guests may move topics by default; here only members may.
  const e = await editWorld({ can_move_messages_between_topics_group: 'role:members' });
  const a = await e.send(e.owner, 'general', 'quiet');
  must(await move(e, e.alice, a, { topic: 'still quiet', send_notification_to_new_thread: 'false' }));
  expectBadRequest(await move(e, e.guest, a, { topic: 'guest move' }), "You don't have permission to edit this message");
  expect(await storedBot(e.w)).toBeUndefined();
});

it('resolving and unresolving always notify in the topic, read except for "never" readers; no "moved here" breadcrumb', async () => {
  const e = await editWorld();
  must(await doUpdateSettings(e.w.ctx, e.w.as(e.bob), { resolved_topic_notice_auto_read_policy: 'never' }));
  const a = await e.send(e.owner, 'general', 'bug');
  const alice = `@_**Alice Adams|${e.alice.id}**`;
  must(await move(e, e.alice, a, { topic: '✔ bug', propagate_mode: 'change_all' }));
  must(await move(e, e.alice, a, { topic: 'bug', propagate_mode: 'change_all', send_notification_to_old_thread: 'true' }));
  // Unresolving with change_all takes the resolve notice back along with the topic. The owner
  // follows the topic they started ("except_followed", the default, keeps notices unread then).
  expect(await notices(e)).toEqual([
    ['general', 'bug', `${alice} has marked this topic as resolved.`, false],
    ['general', 'bug', `${alice} has marked this topic as unresolved.`, false],
    ['general', '✔ bug', `This topic was moved to #**general>bug** by ${alice}.`, false],
  ]);
  expect((await notices(e, e.bob)).map((n) => n[3])).toEqual([false, false, false]);
  expect((await notices(e, e.alice)).map((n) => n[3])).toEqual([true, true, true]);
  // The moderator follows nothing here: the default reads the notices for them.
  expect((await notices(e, e.mod)).slice(0, 2).map((n) => n[3])).toEqual([true, true]);
});

it('channel moves: breadcrumbs in both channels, to their own subscribers; private channels are never named elsewhere', async () => {
  const e = await editWorld();
  const a = await e.send(e.owner, 'general', 'travel');
  const owner = `@_**Olivia Owner|${e.owner.id}**`;
  must(await move(e, e.owner, a, { stream_id: String(e.other), propagate_mode: 'change_all', send_notification_to_old_thread: 'true' }));
  expect(await notices(e)).toEqual([
    ['other', 'travel', `This topic was moved here from #**general>travel** by ${owner}.`, true],
    ['general', 'travel', `This topic was moved to #**other>travel** by ${owner}.`, true],
  ]);
  // Bob is not in #other: he sees only the old channel's breadcrumb.
  expect((await notices(e, e.bob)).map((n) => n[0])).toEqual(['general']);

  const s = await e.send(e.owner, 'secret', 'plans');
  must(await move(e, e.owner, s, { stream_id: String(e.general), propagate_mode: 'change_all', send_notification_to_old_thread: 'true' }));
  // #general gets no "moved here from #secret"; #secret may hear where its topic went.
  expect((await notices(e)).slice(2)).toEqual([['secret', 'plans', `This topic was moved to #**general>plans** by ${owner}.`, true]]);
  expect((await notices(e, e.alice)).map((n) => n[0])).toEqual(['other', 'general']);
});
