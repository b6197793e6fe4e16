/**
 * Text the reference refuses (issue #10): topics with control characters, newlines, ANSI escapes
 * or noncharacters ("Invalid character in topic, at position N!", check_stream_topic) on send,
 * schedule, edit and move; organisation names with unprintable characters; descriptions with NUL.
 * A refused request writes nothing and announces nothing.
 */
import {
  doCreateChannel,
  doCreateScheduledMessage,
  doEditScheduledMessage,
  doSendMessage,
  doUpdateMessage,
  doUpdateRealm,
  doUpdateStream,
  getScheduledMessages,
} from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { expectBadRequest, T0 } from './fixtures.js';
import { messageWorld } from './message-helpers.js';

/** Topic → the position the reference names (1-based, in code points, after stripping). */
const BAD_TOPICS: Array<[string, number]> = [
  ['editing\nfun', 8],
  ['red \u001b[31malert', 5],
  ['tab\there', 4],
  ['bell\u0007', 5],
  ['\u{1F600}x\uFFFE', 3],
  ['end\uFFFF', 4],
  ['a\uFDD0', 2],
  ['  lead\rtrail  ', 5],
];

describe('topics the reference refuses', () => {
  it('send: each unprintable character is refused at its position, and nothing is written or announced', async () => {
    const m = await messageWorld();
    const before = await m.fetchIds(m.member);
    for (const [topic, position] of BAD_TOPICS) {
      const result = await doSendMessage(m.w.ctx, m.w.as(m.member), { type: 'stream', to: 'general', topic, content: 'hi' });
      expectBadRequest(result, `Invalid character in topic, at position ${position}!`);
    }
    expect(await m.fetchIds(m.member)).toEqual(before);
    expect(m.drain()).toEqual([]);
    // Ordinary text still goes through, emoji and all.
    await m.post(m.member, 'fine', 'caf\u00e9 \u{1F600} \u2014 plan');
  });

  it('NUL keeps its own text; a topic that is only whitespace around text is stripped as before', async () => {
    const m = await messageWorld();
    const nul = await doSendMessage(m.w.ctx, m.w.as(m.member), { type: 'stream', to: 'general', topic: 'a\u0000b', content: 'hi' });
    expectBadRequest(nul, 'Topic must not contain null bytes');
    const id = await m.post(m.member, 'hi', '  padded  ');
    const stored = await m.w.ctx.storage.read((tx) => tx.messages.byId(m.w.realm.id, id));
    expect(stored!.topic).toBe('padded');
  });

  it('edit and move: refused with the same text, the message unchanged and no event sent', async () => {
    const m = await messageWorld();
    const id = await m.post(m.member, 'hello', 'lunch');
    m.drain();
    const edit = await doUpdateMessage(m.w.ctx, m.w.as(m.member), { message_id: id, topic: 'lunch\nplans' });
    expectBadRequest(edit, 'Invalid character in topic, at position 6!');
    const move = await doUpdateMessage(m.w.ctx, m.w.as(m.admin), {
      message_id: id,
      stream_id: m.secret.id,
      topic: '\u001b[2J',
      propagate_mode: 'change_all',
    });
    expectBadRequest(move, 'Invalid character in topic, at position 1!');
    const stored = await m.w.ctx.storage.read((tx) => tx.messages.byId(m.w.realm.id, id));
    expect({ topic: stored!.topic, streamId: stored!.streamId }).toEqual({ topic: 'lunch', streamId: m.general.id });
    expect(m.drain()).toEqual([]);
  });

  it('scheduled messages: refused when created, nothing stored', async () => {
    const m = await messageWorld();
    const result = await doCreateScheduledMessage(m.w.ctx, m.w.as(m.member), {
      type: 'channel',
      to: m.general.id,
      topic: 'later\u0085on',
      content: 'Hi',
      scheduled_delivery_timestamp: Math.trunc(T0 / 1000) + 3600,
    });
    expectBadRequest(result, 'Invalid character in topic, at position 6!');
    const listed = must(await getScheduledMessages(m.w.ctx, m.w.as(m.member), {}));
    expect(listed.scheduled_messages).toEqual([]);
  });

  it('scheduled messages: refused when edited, the stored topic kept and no event sent', async () => {
    const m = await messageWorld();
    const created = must(
      await doCreateScheduledMessage(m.w.ctx, m.w.as(m.member), {
        type: 'channel',
        to: m.general.id,
        topic: 'later',
        content: 'Hi',
        scheduled_delivery_timestamp: Math.trunc(T0 / 1000) + 3600,
      }),
    );
    m.drain();
    const edit = await doEditScheduledMessage(m.w.ctx, m.w.as(m.member), { scheduled_message_id: created.scheduled_message_id, topic: 'later\u001fok' });
    expectBadRequest(edit, 'Invalid character in topic, at position 6!');
    const listed = must(await getScheduledMessages(m.w.ctx, m.w.as(m.member), {}));
    expect(listed.scheduled_messages.map((s) => s.topic)).toEqual(['later']);
    expect(m.drain()).toEqual([]);
  });
});

describe('names and descriptions', () => {
  it('PATCH /realm: an organisation name with NUL or another control character is refused, the name kept', async () => {
    const m = await messageWorld();
    m.drain();
    expectBadRequest(await doUpdateRealm(m.w.ctx, m.w.as(m.w.owner), { name: 'Acme\u0000' }), 'Invalid character in name, at position 5.');
    expectBadRequest(await doUpdateRealm(m.w.ctx, m.w.as(m.w.owner), { name: 'A\ncme' }), 'Invalid character in name, at position 2.');
    expectBadRequest(await doUpdateRealm(m.w.ctx, m.w.as(m.w.owner), { description: 'About\u0000' }), 'description must not contain null bytes');
    const realm = await m.w.ctx.storage.read((tx) => tx.realms.byId(m.w.realm.id));
    expect(realm!.name).toBe('Test Org');
    expect(m.drain()).toEqual([]);
    // The limit is counted in code points before anything walks the text.
    expectBadRequest(await doUpdateRealm(m.w.ctx, m.w.as(m.w.owner), { name: 'x'.repeat(1_000_000) }), 'name is too long (limit: 40 characters)');
  });

  it('channel descriptions with NUL are refused on creation and on update', async () => {
    const m = await messageWorld();
    m.drain();
    const created = await doCreateChannel(m.w.ctx, m.w.as(m.admin), { name: 'nul', description: 'a\u0000b', subscribers: [m.admin.id] });
    expectBadRequest(created, 'description must not contain null bytes');
    const updated = await doUpdateStream(m.w.ctx, m.w.as(m.admin), { stream_id: m.general.id, description: '\u0000' });
    expectBadRequest(updated, 'description must not contain null bytes');
    expect(m.drain()).toEqual([]);
  });
});
