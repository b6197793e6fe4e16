/** POST/GET/DELETE /reminders: the reference's text, errors, events to the owner only, the register section. */
import { doDeleteReminder, doDeleteScheduledMessage, doRegister, doCreateScheduledMessage, getReminders, getScheduledMessages } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { expectBadRequest, expectError, secondRealm } from './fixtures.js';
import { reminderWorld } from './reminder-helpers.js';

const URL = 'http://chat.example.com';

describe('POST /reminders', () => {
  it('stores the reference’s text for a channel message and announces the reminder to its owner only', async () => {
    const r = await reminderWorld();
    const m = await r.send(r.bob, { type: 'stream', to: 'general', topic: 'plans', content: 'hello' });
    r.published.length = 0;
    const { reminder_id } = must(await r.remind(r.cleo, m));
    const content =
      'You requested a reminder for the following message.\n\n' +
      `@_**Bob|${r.bob.id}** [said](${URL}/#narrow/channel/${r.general}-general/topic/plans/near/${m}) in [#general > plans](#narrow/channel/${r.general}-general/topic/plans/with/${m}):\n` +
      '```quote\nhello\n```';
    const record = {
      reminder_id,
      type: 'private',
      to: [r.cleo.id],
      content,
      rendered_content: expect.stringContaining('<blockquote>\n<p>hello</p>\n</blockquote>'),
      scheduled_delivery_timestamp: r.at(3600),
      failed: false,
      reminder_target_message_id: m,
    };
    expect(must(await getReminders(r.w.ctx, r.w.as(r.cleo), {}))).toEqual({ reminders: [record] });
    expect(r.published).toEqual([{ realmId: r.w.realm.id, userIds: [r.cleo.id], event: { type: 'reminders', op: 'add', reminders: [record] } }]);
    // Kept out of the scheduled messages, their endpoints and their register section.
    expect(must(await getScheduledMessages(r.w.ctx, r.w.as(r.cleo), {}))).toEqual({ scheduled_messages: [] });
    expectError(await doDeleteScheduledMessage(r.w.ctx, r.w.as(r.cleo), { scheduled_message_id: reminder_id }), 'BAD_REQUEST', 'Scheduled message does not exist', 404);
    const state = must(await doRegister(r.w.ctx, r.w.as(r.cleo), { fetch_event_types: ["reminders","scheduled_messages","realm"] }));
    expect(state.reminders).toEqual([record]);
    expect(state.scheduled_messages).toEqual([]);
    expect(state.max_reminder_note_length).toBe(1000);
    // Nobody else sees it.
    expect(must(await getReminders(r.w.ctx, r.w.as(r.bob), {}))).toEqual({ reminders: [] });
  });

  it('names the recipients of a direct message, a note, a self-DM, polls and to-do lists', async () => {
    const r = await reminderWorld();
    const dm = await r.send(r.bob, { type: 'private', to: `[${r.cleo.id}]`, content: 'psst' });
    const ids = [r.bob.id, r.cleo.id].sort((a, b) => a - b).join(',');
    const contentOf = async (id: number) =>
      ((must(await getReminders(r.w.ctx, r.w.as(r.cleo), {}))).reminders.find((x) => x.reminder_id === id)!).content;
    const plain = must(await r.remind(r.cleo, dm));
    expect(await contentOf(plain.reminder_id)).toBe(
      `You requested a reminder for the following direct message.\n\n@_**Bob|${r.bob.id}** [said](${URL}/#narrow/dm/${ids}/near/${dm}) to @_**Cleo|${r.cleo.id}**:\n\`\`\`quote\npsst\n\`\`\``,
    );
    const noted = must(await r.remind(r.cleo, dm, { note: '\n\nbuy milk  \n' }));
    expect(await contentOf(noted.reminder_id)).toMatch(/^You requested a reminder for the following direct message\. Note:\n > buy milk\n\n@_\*\*Bob/);
    const self = await r.send(r.cleo, { type: 'private', to: `[${r.cleo.id}]`, content: 'note to me' });
    const selfR = must(await r.remind(r.cleo, self));
    expect(await contentOf(selfR.reminder_id)).toBe(
      `You requested a reminder for the following direct message.\n\nYou [sent](${URL}/#narrow/dm/${r.cleo.id}/near/${self}) a note to yourself:\n\`\`\`quote\nnote to me\n\`\`\``,
    );
    const poll = await r.send(r.bob, { type: 'stream', to: 'general', topic: 'a*b', content: '/poll Lunch?' });
    const pollR = must(await r.remind(r.cleo, poll));
    expect(await contentOf(pollR.reminder_id)).toBe(
      `You requested a reminder for the following message.\n\n@_**Bob|${r.bob.id}** [sent](${URL}/#narrow/channel/${r.general}-general/topic/a.2Ab/near/${poll}) a poll in [#general > a&#42;b](#narrow/channel/${r.general}-general/topic/a.2Ab/with/${poll}).`,
    );
    const todo = await r.send(r.cleo, { type: 'private', to: `[${r.cleo.id}]`, content: '/todo Chores' });
    const todoR = must(await r.remind(r.cleo, todo));
    expect(await contentOf(todoR.reminder_id)).toBe(
      `You requested a reminder for the following direct message.\n\nYou [sent](${URL}/#narrow/dm/${r.cleo.id}/near/${todo}) yourself a todo list.`,
    );
  });

  it('quotes with a fence longer than the message’s, and truncates to fit a message', async () => {
    const r = await reminderWorld();
    const fenced = await r.send(r.bob, { type: 'stream', to: 'general', topic: 't', content: '```\ncode\n```' });
    const { reminder_id } = must(await r.remind(r.cleo, fenced));
    const [stored] = (must(await getReminders(r.w.ctx, r.w.as(r.cleo), {}))).reminders;
    expect(stored!.reminder_id).toBe(reminder_id);
    expect(stored!.content.endsWith(':\n````quote\n```\ncode\n```\n````')).toBe(true);
    const long = await r.send(r.bob, { type: 'stream', to: 'general', topic: 't', content: 'x'.repeat(10000) });
    must(await r.remind(r.cleo, long));
    const all = (must(await getReminders(r.w.ctx, r.w.as(r.cleo), {}))).reminders;
    const text = all[1]!.content;
    expect([...text]).toHaveLength(10000);
    expect(text.endsWith('x\n[message truncated]\n```')).toBe(true);
  });

  it('refuses a time not in the future, unknown, other realms’ and unreadable messages, and a long note; writing nothing', async () => {
    const r = await reminderWorld();
    const m = await r.send(r.bob, { type: 'stream', to: 'general', topic: 't', content: 'hi' });
    const dm = await r.send(r.bob, { type: 'private', to: `[${r.w.owner.id}]`, content: 'secret' });
    const other = await secondRealm(r.w.ctx);
    r.published.length = 0;
    expectBadRequest(await r.remind(r.cleo, m, { scheduled_delivery_timestamp: String(r.at(0)) }), 'Scheduled delivery time must be in the future.');
    expectBadRequest(await r.remind(r.cleo, 999999), 'Invalid message(s)');
    expectBadRequest(await r.remind(r.cleo, dm), 'Invalid message(s)');
    const { doCreateReminder } = await import('@teamchat/core');
    const asOther = { realm: other.realm, user: other.owner };
    expectBadRequest(await doCreateReminder(r.w.ctx, asOther, { message_id: m, scheduled_delivery_timestamp: r.at(60) }), 'Invalid message(s)');
    expectBadRequest(await r.remind(r.cleo, m, { note: 'n'.repeat(1001) }), 'Maximum reminder note length: 1000 characters');
    // The limit counts the note after trimming, in code points.
    must(await r.remind(r.bob, m, { note: `${'😀'.repeat(1000)}\n\n` }));
    expect(r.published.filter((p) => p.userIds.includes(r.cleo.id))).toEqual([]);
    expect(must(await getReminders(r.w.ctx, r.w.as(r.cleo), {}))).toEqual({ reminders: [] });
  });

  it('refuses malformed parameters', async () => {
    const r = await reminderWorld();
    const m = await r.send(r.bob, { type: 'stream', to: 'general', topic: 't', content: 'hi' });
    const { doCreateReminder } = await import('@teamchat/core');
    expectError(await doCreateReminder.fromTransport(r.w.ctx, r.w.as(r.cleo), { scheduled_delivery_timestamp: r.at(60) }), 'REQUEST_VARIABLE_MISSING', "Missing 'message_id' argument", 400, { var_name: 'message_id' });
    expect((await doCreateReminder.fromTransport(r.w.ctx, r.w.as(r.cleo), { message_id: 'abc', scheduled_delivery_timestamp: String(r.at(60)) })).isErr()).toBe(true);
    expect((await doCreateReminder.fromTransport(r.w.ctx, r.w.as(r.cleo), { message_id: String(m), scheduled_delivery_timestamp: '"soon"' })).isErr()).toBe(true);
    expect((await doCreateReminder.fromTransport(r.w.ctx, r.w.as(r.cleo), { message_id: String(m), scheduled_delivery_timestamp: String(r.at(60)), note: 5 })).isErr()).toBe(true);
    expect(must(await getReminders(r.w.ctx, r.w.as(r.cleo), {}))).toEqual({ reminders: [] });
  });
});

describe('DELETE /reminders/{reminder_id}', () => {
  it('deletes the owner’s reminder with a remove event; others’, unknown and scheduled messages’ IDs do not exist', async () => {
    const r = await reminderWorld();
    const m = await r.send(r.bob, { type: 'stream', to: 'general', topic: 't', content: 'hi' });
    const { reminder_id } = must(await r.remind(r.cleo, m));
    const { scheduled_message_id } = must(
      await doCreateScheduledMessage(r.w.ctx, r.w.as(r.cleo), { type: 'stream', to: r.general, topic: 't', content: 'later', scheduled_delivery_timestamp: r.at(60) }),
    );
    r.published.length = 0;
    const notFound = (result: Parameters<typeof expectError>[0]) => expectError(result, 'BAD_REQUEST', 'Reminder does not exist', 404);
    notFound(await doDeleteReminder(r.w.ctx, r.w.as(r.bob), { reminder_id: reminder_id }));
    notFound(await doDeleteReminder(r.w.ctx, r.w.as(r.cleo), { reminder_id: scheduled_message_id }));
    notFound(await doDeleteReminder(r.w.ctx, r.w.as(r.cleo), { reminder_id: 424242 }));
    expect(r.published).toEqual([]);
    expect(must(await doDeleteReminder(r.w.ctx, r.w.as(r.cleo), { reminder_id: reminder_id }))).toEqual({});
    expect(r.published).toEqual([{ realmId: r.w.realm.id, userIds: [r.cleo.id], event: { type: 'reminders', op: 'remove', reminder_id } }]);
    notFound(await doDeleteReminder(r.w.ctx, r.w.as(r.cleo), { reminder_id: reminder_id }));
    expect(must(await getReminders(r.w.ctx, r.w.as(r.cleo), {}))).toEqual({ reminders: [] });
    expect((must(await getScheduledMessages(r.w.ctx, r.w.as(r.cleo), {}))).scheduled_messages).toHaveLength(1);
  });
});
