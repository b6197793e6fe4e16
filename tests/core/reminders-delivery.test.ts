/** Reminder delivery by the one durable scheduler, with an injected clock: text, events, late and unreadable cases. */
import { deliverDueScheduledMessages, doDeactivateUser, doDeleteReminder, doUnsubscribe, getReminders, startScheduledDelivery } from '@teamchat/core/internal';
import { afterEach, describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { drain, history, messageQueue, storedBot } from './notification-bot-helpers.js';
import { reminderWorld } from './reminder-helpers.js';

const stops: Array<() => void> = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

describe('reminder delivery', () => {
  it('at its time the Notification Bot DMs the owner the message as it is now, with a remove event', async () => {
    const r = await reminderWorld();
    const m = await r.send(r.bob, { type: 'stream', to: 'general', topic: 'plans', content: 'hello' });
    const { reminder_id } = must(await r.remind(r.cleo, m, { note: 'call back' }));
    const queue = await messageQueue(r.w, r.cleo, ['message', 'reminders']);
    const bobQueue = await messageQueue(r.w, r.bob, ['message', 'reminders']);
    r.clock.advance(3599_000);
    expect((await deliverDueScheduledMessages(r.w.ctx)).sent).toEqual([]);
    r.clock.advance(1000);
    expect(await deliverDueScheduledMessages(r.w.ctx)).toEqual({ sent: [reminder_id], failed: [], nextDue: undefined });
    const bot = (await storedBot(r.w))!;
    const content =
      'You requested a reminder for the following message. Note:\n > call back\n\n' +
      `@_**Bob|${r.bob.id}** [said](http://chat.example.com/#narrow/channel/${r.general}-general/topic/plans/near/${m}) in [#general > plans](#narrow/channel/${r.general}-general/topic/plans/with/${m}):\n` +
      '```quote\nhello\n```';
    const events = await drain(r.w, r.cleo, queue);
    expect(events.map((e) => e.type)).toEqual(['message', 'reminders']);
    expect(events[0]).toMatchObject({ message: { type: 'private', sender_id: bot.id, content, display_recipient: [expect.objectContaining({ id: r.cleo.id }), expect.objectContaining({ id: bot.id })] } });
    expect(events[1]).toEqual({ id: events[1]!.id, type: 'reminders', op: 'remove', reminder_id });
    expect(await drain(r.w, r.bob, bobQueue)).toEqual([]);
    expect(must(await getReminders(r.w.ctx, r.w.as(r.cleo), {}))).toEqual({ reminders: [] });
    // Sent once only.
    expect((await deliverDueScheduledMessages(r.w.ctx)).sent).toEqual([]);
  });

  it('never quotes a message the owner can no longer read (deleted); one still in their history is quoted', async () => {
    const r = await reminderWorld();
    const { doSubscribe, doDeleteMessage } = await import('@teamchat/core/internal');
    must(await doSubscribe(r.w.ctx, r.w.as(r.bob), { subscriptions: [{ name: "hideout" }], invite_only: true, principals: [r.bob.id, r.cleo.id] }));
    const kept = await r.send(r.bob, { type: 'stream', to: 'hideout', topic: 'plans', content: 'still mine' });
    const gone = await r.send(r.bob, { type: 'stream', to: 'general', topic: 'old', content: 'deleted soon' });
    // Not the newest message: SQLite would hand a deleted newest message's ID to the next one (see the report).
    await r.send(r.bob, { type: 'stream', to: 'general', topic: 'old', content: 'after' });
    must(await r.remind(r.cleo, kept));
    must(await r.remind(r.cleo, gone));
    // Leaving the private channel keeps Cleo's copy (access_message still lets her read it).
    must(await doUnsubscribe(r.w.ctx, r.w.as(r.cleo), { subscriptions: ["hideout"] }));
    must(await doDeleteMessage(r.w.ctx, r.w.as(r.w.owner), { message_id: gone }));
    r.clock.advance(3600_000);
    expect((await deliverDueScheduledMessages(r.w.ctx)).sent).toHaveLength(2);
    const bot = (await storedBot(r.w))!;
    const texts = (await history(r.w, r.cleo)).filter((m) => m.sender_id === bot.id).map((m) => m.content);
    expect(texts).toHaveLength(2);
    expect(texts[0]).toContain('```quote\nstill mine\n```');
    expect(texts[1]).toBe(
      `You requested a reminder for the following message.\n\n@_**Bob|${r.bob.id}** [said](http://chat.example.com/#narrow/channel/${r.general}-general/topic/old/near/${gone}) in [#general > old](#narrow/channel/${r.general}-general/topic/old/with/${gone}).`,
    );
  });

  it('a reminder that fell due while the server was down is sent when the scheduler starts, however late', async () => {
    const r = await reminderWorld();
    const m = await r.send(r.bob, { type: 'stream', to: 'general', topic: 't', content: 'hi' });
    const { reminder_id } = must(await r.remind(r.cleo, m));
    // A day past its time: scheduled messages have a late cutoff, reminders do not.
    r.clock.advance(25 * 3600_000);
    const scheduler = startScheduledDelivery(r.w.ctx);
    stops.push(() => scheduler.stop());
    await scheduler.idle();
    expect((await history(r.w, r.cleo)).at(-1)).toMatchObject({ sender_id: (await storedBot(r.w))!.id });
    expect(r.published.some((p) => p.event.type === 'reminders' && p.event.op === 'remove' && p.event.reminder_id === reminder_id)).toBe(true);
  });

  it('a deleted reminder is not sent; a deactivated owner’s is marked failed silently', async () => {
    const r = await reminderWorld();
    const m = await r.send(r.bob, { type: 'stream', to: 'general', topic: 't', content: 'hi' });
    const first = must(await r.remind(r.cleo, m));
    must(await doDeleteReminder(r.w.ctx, r.w.as(r.cleo), { reminder_id: first.reminder_id }));
    const second = must(await r.remind(r.bob, m));
    must(await doDeactivateUser(r.w.ctx, r.w.as(r.w.owner), { user_id: r.bob.id }));
    r.clock.advance(3600_000);
    r.published.length = 0;
    expect(await deliverDueScheduledMessages(r.w.ctx)).toEqual({ sent: [], failed: [second.reminder_id], nextDue: undefined });
    expect(r.published).toEqual([]);
    const row = await r.w.ctx.storage.read((tx) => tx.scheduledMessages.get(r.w.realm.id, r.bob.id, second.reminder_id, 'remind'));
    expect(row).toMatchObject({ failed: true, deliveryType: 'remind', reminderTargetMessageId: m });
  });
});
