/** GET /messages narrows (SHAPES.md 6.1): every operator, negation, BAD_NARROW, search with highlights; matches_narrow. */
import { doAddReaction, doUpdateMessageFlags, getMatchesNarrow, getMessages } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { expectBadRequest, expectError } from './fixtures.js';
import { messageWorld } from './message-helpers.js';

const badNarrow = (what: string) => ['BAD_NARROW', `Invalid narrow operator: ${what}`] as const;

describe('GET /messages narrows', () => {
  const setup = async () => {
    const m = await messageWorld();
    const { admin, member, other } = m;
    const lunch = await m.post(admin, 'lunch at noon https://example.com', 'lunch');
    const dinner = await m.post(member, 'dinner @**Mel Member** later', 'Dinner');
    const empty = await m.post(other, 'no topic here', '');
    const resolved = await m.post(admin, 'done', '✔ fixed');
    const dm = await m.send(admin, { type: 'direct', to: `[${member.id}]`, content: 'psst' });
    const group = await m.send(other, { type: 'direct', to: `[${member.id}, ${admin.id}]`, content: 'group chat' });
    const secret = await m.post(admin, 'secret lunch', 'lunch', 'secret');
    return { m, lunch, dinner, empty, resolved, dm, group, secret };
  };

  it('channel, topic, sender, dm, dm-including, id, with, near and their legacy names', async () => {
    const { m, lunch, dinner, empty, resolved, dm, group, secret } = await setup();
    const { member, admin, other } = m;
    expect(await m.fetchIds(member, [['channel', 'general']])).toEqual([lunch, dinner, empty, resolved]);
    expect(await m.fetchIds(member, [{ operator: 'stream', operand: m.general.id }])).toEqual([lunch, dinner, empty, resolved]);
    expect(await m.fetchIds(member, [['stream', 'GENERAL'], ['subject', 'LUNCH']])).toEqual([lunch]);
    expect(await m.fetchIds(member, [['topic', 'lunch']])).toEqual([lunch, secret]);
    // The empty topic by its display name or as "".
    expect(await m.fetchIds(member, [['topic', 'general chat']])).toEqual([empty]);
    expect(await m.fetchIds(member, [['topic', '']])).toEqual([empty]);
    expect(await m.fetchIds(member, [['sender', admin.id]])).toEqual([lunch, resolved, dm, secret]);
    expect(await m.fetchIds(member, [['sender', 'ada@example.com']])).toEqual([lunch, resolved, dm, secret]);
    expect(await m.fetchIds(member, [['dm', [admin.id]]])).toEqual([dm]);
    expect(await m.fetchIds(member, [['pm-with', 'ada@example.com']])).toEqual([dm]);
    expect(await m.fetchIds(member, [['dm', `ada@example.com,${other.deliveryEmail}`]])).toEqual([group]);
    expect(await m.fetchIds(member, [['dm-including', other.id]])).toEqual([group]);
    expect(await m.fetchIds(member, [['group-pm-with', 'ada@example.com']])).toEqual([dm, group]);
    expect(await m.fetchIds(member, [['id', String(dinner)]])).toEqual([dinner]);
    expect(await m.fetchIds(member, [['id', dinner]])).toEqual([dinner]);
    expect(await m.fetchIds(member, [['with', lunch]])).toEqual([lunch]);
    expect(await m.fetchIds(member, [['with', dm]])).toEqual([dm]);
    expect(await m.fetchIds(member, [['near', lunch], ['channel', 'general']])).toEqual([lunch, dinner, empty, resolved]);
  });

  it('is:, has:, negation and channels:public', async () => {
    const { m, lunch, dinner, empty, resolved, dm, group, secret } = await setup();
    const { member, w } = m;
    expect(await m.fetchIds(member, [['is', 'dm']])).toEqual([dm, group]);
    expect(await m.fetchIds(member, [['is', 'private']])).toEqual([dm, group]);
    expect(await m.fetchIds(member, [['is', 'mentioned']])).toEqual([dinner]);
    expect(await m.fetchIds(member, [['is', 'resolved']])).toEqual([resolved]);
    // Own messages are read; everything else starts unread.
    expect(await m.fetchIds(member, [['is', 'unread']])).toEqual([lunch, empty, resolved, dm, group, secret]);
    must(await doUpdateMessageFlags(w.ctx, w.as(member), { messages: [lunch], op: 'add', flag: 'starred' }));
    expect(await m.fetchIds(member, [['is', 'starred']])).toEqual([lunch]);
    expect(await m.fetchIds(member, [['has', 'link']])).toEqual([lunch]);
    must(await doAddReaction(w.ctx, w.as(member), { message_id: dm, emoji_name: 'smile' }));
    expect(await m.fetchIds(member, [['has', 'reaction']])).toEqual([dm]);
    expect(await m.fetchIds(member, [{ operator: 'is', operand: 'dm', negated: true }])).toEqual([lunch, dinner, empty, resolved, secret]);
    expect(await m.fetchIds(member, [['-topic', 'lunch'], ['channel', 'general']])).toEqual([dinner, empty, resolved]);
    expect(await m.fetchIds(member, [{ operator: 'sender', operand: member.id, negated: true }, { operator: 'is', operand: 'dm' }])).toEqual([dm, group]);
    // channels:public reaches public channel history, never the private channel.
    const outsider = await w.addUser({ email: 'new@example.com', fullName: 'New Comer' });
    expect(await m.fetchIds(outsider, [['channels', 'public']])).toEqual([lunch, dinner, empty, resolved]);
    expect(await m.fetchIds(outsider, [['streams', 'public'], ['topic', 'lunch']])).toEqual([lunch]);
    expect(await m.fetchIds(outsider, [])).toEqual([]);
  });

  it('search: keyword prefixes in content and topic, with match_content and match_subject', async () => {
    const { m, lunch, secret } = await setup();
    const page = must(
      await getMessages(m.w.ctx, m.w.as(m.member), { anchor: 'newest', num_before: 10, num_after: 0, narrow: [["search","lunc"]] }),
    );
    expect(page.messages.map((x) => x.id)).toEqual([lunch, secret]);
    expect(page.messages[0]).toMatchObject({
      match_content: '<p><span class="highlight">lunch</span> at noon <a href="https://example.com">https://example.com</a></p>',
      match_subject: '<span class="highlight">lunch</span>',
    });
    // FTS operators in user input are plain words.
    expect(await m.fetchIds(m.member, [['search', 'lunch OR psst']])).toEqual([]);
    expect(await m.fetchIds(m.member, [['search', 'psst']])).toHaveLength(1);
    expect(await m.fetchIds(m.member, [['search', '"*']])).toEqual([]);
  });

  it('answers BAD_NARROW for unknown operators, operands, channels and users', async () => {
    const { m } = await setup();
    const get = (narrow: unknown) => getMessages.fromTransport(m.w.ctx, m.w.as(m.other), { anchor: 'newest', num_before: 1, num_after: 0, narrow: JSON.stringify(narrow) });
    expectError(await get([['bogus', 'x']]), ...badNarrow('unknown operator'));
    expectError(await get([['is', 'bogus']]), ...badNarrow("unknown 'is' operand"));
    expectError(await get([['has', 'bogus']]), ...badNarrow("unknown 'has' operand"));
    expectError(await get([['channels', 'all']]), ...badNarrow("unknown 'channels' operand"));
    expectError(await get([['channel', 'nowhere']]), ...badNarrow('unknown channel'));
    // A private channel the viewer may not read is as unknown as a missing one.
    expectError(await get([['channel', 'secret']]), ...badNarrow('unknown channel'));
    expectError(await get([['channel', m.secret.id]]), ...badNarrow('unknown channel'));
    expectError(await get([['sender', 'nobody@example.com']]), ...badNarrow('unknown user'));
    expectError(await get([['dm', [9999]]]), ...badNarrow('unknown user'));
    expectError(await get([['id', 'abc']]), ...badNarrow('invalid message ID'));
    expectBadRequest(await get('nope'), 'narrow is not a list');
    expectBadRequest(await getMessages.fromTransport(m.w.ctx, m.w.as(m.other), { anchor: 'newest', num_before: 1, num_after: 0, narrow: '[["is"' }), 'narrow is not valid JSON');
  });

  it('matches_narrow: the IDs that match, with the content and escaped topic; unreadable ones left out', async () => {
    const { m, lunch, dinner, secret } = await setup();
    const match = (user: typeof m.member, ids: number[], narrow: unknown) =>
      getMatchesNarrow.fromTransport(m.w.ctx, m.w.as(user), { msg_ids: ids, narrow: narrow });
    expect(must(await match(m.other, [lunch, dinner, secret, 9999], [['topic', 'lunch']]))).toEqual({
      messages: { [lunch]: { match_content: '<p>lunch at noon <a href="https://example.com">https://example.com</a></p>', match_subject: 'lunch' } },
    });
    expect(must(await match(m.member, [lunch, secret], [['search', 'secret']]))).toEqual({
      messages: { [secret]: { match_content: '<p><span class="highlight">secret</span> lunch</p>', match_subject: 'lunch' } },
    });
    expectError(await match(m.member, [lunch], [['bogus', 1]]), ...badNarrow('unknown operator'));
    expectError(await getMatchesNarrow.fromTransport(m.w.ctx, m.w.as(m.member), { narrow: [] }), 'REQUEST_VARIABLE_MISSING', "Missing 'msg_ids' argument", 400, { var_name: 'msg_ids' });
  });
});
