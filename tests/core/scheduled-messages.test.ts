/** GET/POST /scheduled_messages, PATCH/DELETE /scheduled_messages/{id}, the scheduler: API.md 4.3, FACTS.md 6.3. */
import {
  deliverDueScheduledMessages,
  doCreateScheduledMessage,
  doDeleteScheduledMessage,
  doEditScheduledMessage,
  getScheduledMessages,
  type User,
} from '@teamchat/core/internal';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { recipientsOf, register, setStream, type Snapshot } from './channel-helpers.js';
import { expectBadRequest, expectError, type fakeClock, T0 } from './fixtures.js';
import { messageWorld } from './message-helpers.js';

const LATER = Math.trunc(T0 / 1000) + 3600;

async function world() {
  const m = await messageWorld();
  const clock = m.w.ctx.clock as ReturnType<typeof fakeClock>;
  const schedule = (user: User, params: Record<string, unknown>) =>
    doCreateScheduledMessage.fromTransport(m.w.ctx, m.w.as(user), { scheduled_delivery_timestamp: LATER, content: 'Hi', ...params });
  const create = async (user: User, params: Record<string, unknown>) =>
    (must(await schedule(user, params))).scheduled_message_id;
  const list = async (user: User) => (must(await getScheduledMessages(m.w.ctx, m.w.as(user), {}))).scheduled_messages;
  const edit = (user: User, id: number, params: Record<string, unknown>) =>
    doEditScheduledMessage(m.w.ctx, m.w.as(user), { scheduled_message_id: id, ...params });
  return { ...m, clock, schedule, create, list, edit };
}

describe('scheduled messages: create, list, edit, delete', () => {
  it('creates channel and direct messages, lists them by delivery time with the reference shape, and announces to the owner only', async () => {
    const m = await world();
    const dm = await m.create(m.member, { type: 'direct', to: JSON.stringify([m.other.id]), content: 'Hello', scheduled_delivery_timestamp: String(LATER + 10) });
    const ch = await m.create(m.member, { type: 'channel', to: String(m.general.id), topic: 'Introduction' });
    expect(await m.list(m.member)).toEqual([
      { scheduled_message_id: ch, type: 'stream', to: m.general.id, topic: 'Introduction', content: 'Hi', rendered_content: '<p>Hi</p>', scheduled_delivery_timestamp: LATER, failed: false },
      { scheduled_message_id: dm, type: 'private', to: [m.other.id], content: 'Hello', rendered_content: '<p>Hello</p>', scheduled_delivery_timestamp: LATER + 10, failed: false },
    ]);
    expect(await m.list(m.other)).toEqual([]);
    expect(recipientsOf(m.published, 'scheduled_messages', 'add')).toEqual([[m.member.id], [m.member.id]]);
    const snapshot = await register(m.w, m.member, { fetch_event_types: JSON.stringify(['scheduled_messages']) });
    expect(snapshot.scheduled_messages.map((s: Snapshot) => s.scheduled_message_id)).toEqual([ch, dm]);
  });

  it('refuses a past time, unknown, or invisible target and bad input, and publishes nothing', async () => {
    const m = await world();
    m.drain();
    expectBadRequest(await m.schedule(m.member, { type: 'stream', to: String(m.general.id), topic: 't', scheduled_delivery_timestamp: String(LATER - 7200) }), 'Scheduled delivery time must be in the future.');
    expectError(await m.schedule(m.member, { type: 'stream', to: '9999', topic: 't' }), 'STREAM_DOES_NOT_EXIST', "Channel with ID '9999' does not exist", 400, { stream_id: 9999 });
    // A private channel the user is not in answers like a missing one.
    expectError(await m.schedule(m.other, { type: 'stream', to: String(m.secret.id), topic: 't' }), 'STREAM_DOES_NOT_EXIST', `Channel with ID '${m.secret.id}' does not exist`, 400, { stream_id: m.secret.id });
    expectBadRequest(await m.schedule(m.member, { type: 'private', to: '[9999]' }), 'Invalid user ID 9999');
    expectBadRequest(await m.schedule(m.member, { type: 'stream', to: String(m.general.id) }), 'Missing topic');
    // `to` is `Json[int | list[int]]`, declared before the timestamp, so its error comes first.
    expectError(await m.schedule(m.member, { type: 'private', to: '[1', scheduled_delivery_timestamp: 'x' }), 'BAD_REQUEST', 'to is not valid JSON', 400, {});
    expectError(await m.schedule(m.member, { type: 'private', to: '[1]', scheduled_delivery_timestamp: 'x' }), 'BAD_REQUEST', 'scheduled_delivery_timestamp is not valid JSON', 400, {});
    expect(m.published).toEqual([]);
  });

  it('edits with every rule of API.md 4.3 and announces an update', async () => {
    const m = await world();
    const id = await m.create(m.member, { type: 'private', to: JSON.stringify([m.other.id]) });
    m.drain();
    expectError(await m.edit(m.member, 9999, { content: 'x' }), 'BAD_REQUEST', 'Scheduled message does not exist', 404);
    expectError(await m.edit(m.other, id, { content: 'x' }), 'BAD_REQUEST', 'Scheduled message does not exist', 404);
    // A past delivery time is refused before the message is looked up, as in the reference.
    expectBadRequest(await m.edit(m.member, 9999, { scheduled_delivery_timestamp: String(Math.trunc(T0 / 1000) - 1) }), 'Scheduled delivery time must be in the future.');
    expectBadRequest(await m.edit(m.member, id, { type: 'stream' }), 'Recipient required when updating type of scheduled message.');
    for (const topic of [undefined, '', '(no topic)', 'general chat']) {
      expectBadRequest(await m.edit(m.member, id, { type: 'channel', to: String(m.general.id), ...(topic === undefined ? {} : { topic }) }), 'Topic required when updating scheduled message type to channel.');
    }
    expectBadRequest(await m.edit(m.member, id, { scheduled_delivery_timestamp: String(LATER - 7200) }), 'Scheduled delivery time must be in the future.');
    expectBadRequest(await m.edit(m.member, id, { to: '[9999]' }), 'Invalid user ID 9999');
    expect(m.published).toEqual([]);
    must(await m.edit(m.member, id, { type: 'channel', to: String(m.general.id), topic: 'moved', content: '**bold**' }));
    expect(await m.list(m.member)).toEqual([
      { scheduled_message_id: id, type: 'stream', to: m.general.id, topic: 'moved', content: '**bold**', rendered_content: '<p><strong>bold</strong></p>', scheduled_delivery_timestamp: LATER, failed: false },
    ]);
    // A topic edit of a channel message keeps the rest; the empty-topic aliases mean "".
    must(await m.edit(m.member, id, { topic: '(no topic)' }));
    expect((await m.list(m.member))[0]!.topic).toBe('');
    expect(recipientsOf(m.published, 'scheduled_messages', 'update')).toEqual([[m.member.id], [m.member.id]]);
  });

  it('deletes only the owner\'s message', async () => {
    const m = await world();
    const id = await m.create(m.member, { type: 'private', to: JSON.stringify([m.other.id]) });
    m.drain();
    expectError(await doDeleteScheduledMessage(m.w.ctx, m.w.as(m.other), { scheduled_message_id: id }), 'BAD_REQUEST', 'Scheduled message does not exist', 404);
    expect(m.published).toEqual([]);
    must(await doDeleteScheduledMessage(m.w.ctx, m.w.as(m.member), { scheduled_message_id: id }));
    expect(await m.list(m.member)).toEqual([]);
    expect(m.published.map((p) => [p.event, p.userIds])).toEqual([[{ type: 'scheduled_messages', op: 'remove', scheduled_message_id: id }, [m.member.id]]]);
  });
});

describe('scheduled messages: delivery', () => {
  it('sends due messages through the send path, removes them, and marks refused ones failed', async () => {
    const m = await world();
    const sent = await m.create(m.member, { type: 'stream', to: String(m.general.id), topic: 'later', content: 'on time' });
    const refused = await m.create(m.member, { type: 'stream', to: String(m.secret.id), topic: 'later', content: 'archived' });
    const notYet = await m.create(m.member, { type: 'private', to: JSON.stringify([m.other.id]), scheduled_delivery_timestamp: String(LATER + 60) });
    await setStream(m.w, m.secret, { isArchived: true });
    m.drain();
    expect(await deliverDueScheduledMessages(m.w.ctx)).toEqual({ sent: [], failed: [], nextDue: LATER });
    m.clock.advance(3600 * 1000);
    expect(await deliverDueScheduledMessages(m.w.ctx)).toEqual({ sent: [sent], failed: [refused], nextDue: LATER + 60 });
    const ids = await m.fetchIds(m.other);
    expect(ids).toHaveLength(1);
    expect((await m.list(m.member)).map((s) => [s.scheduled_message_id, s.failed])).toEqual([
      [refused, true],
      [notYet, false],
    ]);
    expect(recipientsOf(m.published, 'scheduled_messages', 'remove')).toEqual([[m.member.id]]);
    expect(recipientsOf(m.published, 'scheduled_messages', 'update')).toEqual([[m.member.id]]);
    // A failed message needs a new time; a successful edit clears `failed`.
    expectBadRequest(await m.edit(m.member, refused, { to: String(m.general.id) }), 'Scheduled delivery time must be in the future.');
    must(await m.edit(m.member, refused, { to: String(m.general.id), scheduled_delivery_timestamp: String(LATER + 3600 * 2) }));
    expect((await m.list(m.member)).find((s) => s.scheduled_message_id === refused)!.failed).toBe(false);
  });

  it('claims each message in its send: two schedulers running at once send it once, and a message deleted after the scan is not sent', async () => {
    const m = await world();
    const once = await m.create(m.member, { type: 'stream', to: String(m.general.id), topic: 'later', content: 'exactly once' });
    const deleted = await m.create(m.member, { type: 'stream', to: String(m.general.id), topic: 'later', content: 'never' });
    m.clock.advance(3600 * 1000);
    // Both runs scan before either sends (the scans are reads; the sends queue behind them).
    const deleting = m.w.ctx.storage.transaction(async (tx) => {
      await tx.scheduledMessages.delete(m.w.realm.id, m.member.id, deleted);
      return (await import('neverthrow')).ok(undefined);
    });
    const [first, second] = await Promise.all([deliverDueScheduledMessages(m.w.ctx), deliverDueScheduledMessages(m.w.ctx), deleting]);

    expect([...first.sent, ...second.sent]).toEqual([once]);
    expect([...first.failed, ...second.failed]).toEqual([]);
    const contents = (await m.fetchIds(m.other)).length;
    expect(contents).toBe(1);
    expect(await m.list(m.member)).toEqual([]);
    expect(recipientsOf(m.published, 'scheduled_messages', 'remove')).toEqual([[m.member.id]]);
  });
});
