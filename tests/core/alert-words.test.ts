/** GET/POST/DELETE /users/me/alert_words, the alert_words event and register section, and has_alert_word. */
import { doAddAlertWords, doRemoveAlertWords, getAlertWords, getMessages } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { queued, recipientsOf, register } from './channel-helpers.js';
import { expectBadRequest, expectError, secondRealm } from './fixtures.js';
import { messageWorld } from './message-helpers.js';

describe('alert words', () => {
  it('adds (stripped, blanks dropped, case-insensitive duplicates ignored), lists and removes', async () => {
    const m = await messageWorld();
    const { w, member } = m;
    expect(must(await getAlertWords(w.ctx, w.as(member), {}))).toEqual({ alert_words: [] });
    expect(must(await doAddAlertWords(w.ctx, w.as(member), { alert_words: ["one ","\n two","","☃","multi-word word"] }))).toEqual({
      alert_words: ['one', 'two', '☃', 'multi-word word'],
    });
    // Already present ignoring case: the first spelling stays.
    expect(must(await doAddAlertWords(w.ctx, w.as(member), { alert_words: ["ONE","Three","THREE"] }))).toEqual({
      alert_words: ['one', 'two', '☃', 'multi-word word', 'THREE'],
    });
    expect(must(await doRemoveAlertWords(w.ctx, w.as(member), { alert_words: ["One","never added","three"] }))).toEqual({
      alert_words: ['two', '☃', 'multi-word word'],
    });
    expect(must(await getAlertWords(w.ctx, w.as(member), {}))).toEqual({ alert_words: ['two', '☃', 'multi-word word'] });
    // Another user's words are their own.
    expect(must(await getAlertWords(w.ctx, w.as(m.other), {}))).toEqual({ alert_words: [] });
  });

  it('sends the whole list to the user\'s own queues after each change, and register has it', async () => {
    const m = await messageWorld();
    const { w, member, other } = m;
    const queue = await register(w, member, { event_types: '["alert_words"]' });
    const otherQueue = await register(w, other, {});
    m.drain();
    must(await doAddAlertWords(w.ctx, w.as(member), { alert_words: ["milk"] }));
    must(await doRemoveAlertWords(w.ctx, w.as(member), { alert_words: ["nothing"] }));
    expect(recipientsOf(m.drain(), 'alert_words')).toEqual([[member.id], [member.id]]);
    expect((await queued(w, member, queue.queue_id)).map(({ id: _id, ...e }) => e)).toEqual([
      { type: 'alert_words', alert_words: ['milk'] },
      { type: 'alert_words', alert_words: ['milk'] },
    ]);
    expect(await queued(w, other, otherQueue.queue_id)).toEqual([]);
    expect((await register(w, member, { fetch_event_types: '["alert_words"]' })).alert_words).toEqual(['milk']);
    expect((await register(w, other, { fetch_event_types: '["alert_words"]' })).alert_words).toEqual([]);
  });

  it('refuses bad input and sends nothing', async () => {
    const m = await messageWorld();
    const { w, member } = m;
    expectBadRequest(await doAddAlertWords(w.ctx, w.as(member), { alert_words: ['x'.repeat(101)] }), 'alert_words[0] is too long (limit: 100 characters)');
    expectBadRequest(await doAddAlertWords.fromTransport(w.ctx, w.as(member), { alert_words: '["a"' }), 'alert_words is not valid JSON');
    expectBadRequest(await doAddAlertWords.fromTransport(w.ctx, w.as(member), { alert_words: '"a"' }), 'alert_words is not a list');
    expectBadRequest(await doAddAlertWords.fromTransport(w.ctx, w.as(member), { alert_words: [1] }), 'alert_words[0] is not a string');
    expectBadRequest(await doRemoveAlertWords.fromTransport(w.ctx, w.as(member), { alert_words: {} }), 'alert_words is not a list');
    expectError(await doAddAlertWords.fromTransport(w.ctx, w.as(member), {}), 'REQUEST_VARIABLE_MISSING', "Missing 'alert_words' argument", 400, { var_name: 'alert_words' });
    expectError(await getAlertWords(w.ctx, w.as(null), {}), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    expect(m.drain()).toEqual([]);
    expect(must(await getAlertWords(w.ctx, w.as(member), {}))).toEqual({ alert_words: [] });
  });

  it('flags each recipient by their own words (the sender too), not inside words, code blocks or other realms', async () => {
    const m = await messageWorld();
    const { w, member, other, admin } = m;
    must(await doAddAlertWords(w.ctx, w.as(member), { alert_words: ["one","two"] }));
    must(await doAddAlertWords(w.ctx, w.as(other), { alert_words: ["three"] }));
    must(await doAddAlertWords(w.ctx, w.as(admin), { alert_words: ["ONE"] }));
    const second = await secondRealm(w.ctx);
    must(await doAddAlertWords(w.ctx, { realm: second.realm, user: second.owner }, { alert_words: ["one"] }));

    const flagsOf = async (user: typeof member, id: number) => {
      const page = must(await getMessages(w.ctx, w.as(user), { message_ids: [id] })) as { messages: Array<{ flags: string[] }> };
      return page.messages[0]!.flags;
    };
    const a = await m.post(admin, 'Normal alert One time');
    expect(await flagsOf(member, a)).toEqual(['has_alert_word']);
    expect(await flagsOf(other, a)).toEqual([]);
    expect(await flagsOf(admin, a)).toEqual(['read', 'has_alert_word']);
    const b = await m.post(admin, "Don't alert on clone, twofold or http://t.co/one/ urls\n```\none\n```");
    expect(await flagsOf(member, b)).toEqual([]);
    const c = await m.send(member, { type: 'direct', to: JSON.stringify([other.id]), content: 'three, two!' });
    expect(await flagsOf(member, c)).toEqual(['read', 'has_alert_word']);
    expect(await flagsOf(other, c)).toEqual(['has_alert_word']);
    expect(await m.fetchIds(member, [['is', 'alerted']])).toEqual([a, c]);
  });

  it('delivers has_alert_word in the message event of the recipient only', async () => {
    const m = await messageWorld();
    const { w, member, other } = m;
    must(await doAddAlertWords(w.ctx, w.as(member), { alert_words: ["lunch"] }));
    const memberQueue = await register(w, member, { event_types: '["message"]' });
    const otherQueue = await register(w, other, { event_types: '["message"]' });
    await m.post(w.owner, 'lunch time');
    expect((await queued(w, member, memberQueue.queue_id)).map((e) => e.flags)).toEqual([['has_alert_word']]);
    expect((await queued(w, other, otherQueue.queue_id)).map((e) => e.flags)).toEqual([[]]);
  });
});
