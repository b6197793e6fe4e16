/**
 * The narrow operators of topic visibility and mentions: is:followed, is:muted (FL 265 and the
 * reference's in:home inverse) and mentions (FL 446), in GET /messages, matches_narrow, the
 * flags-by-narrow endpoint and a queue's narrow, with negation and BAD_NARROW.
 */
import { doUpdateMessageFlagsForNarrow, doUpdateSettings, doUpdateUserTopic, getMatchesNarrow, getMessages, type User } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { queued, register, setSubscription } from './channel-helpers.js';
import { expectError, secondRealm } from './fixtures.js';
import { messageWorld } from './message-helpers.js';

const badNarrow = (what: string) => ['BAD_NARROW', `Invalid narrow operator: ${what}`] as const;

async function setup() {
  const m = await messageWorld();
  const { admin, member, other } = m;
  const policy = async (user: User, streamId: number, topic: string, visibility_policy: number) =>
    must(await doUpdateUserTopic(m.w.ctx, m.w.as(user), { stream_id: streamId, topic, visibility_policy: visibility_policy }));
  // Only the policies each test sets: sending and mentions would otherwise follow topics.
  for (const user of [admin, member, other]) {
    const never = { automatically_follow_topics_policy: '4', automatically_unmute_topics_in_muted_streams_policy: '4', automatically_follow_topics_where_mentioned: 'false' };
    must(await doUpdateSettings.fromTransport(m.w.ctx, m.w.as(user), never));
  }
  const lunch = await m.post(admin, 'lunch at noon', 'lunch');
  const dinner = await m.post(other, 'dinner @**Mel Member**', 'dinner');
  const quiet = await m.post(other, 'psst @_**Mel Member**', 'dinner');
  const everyone = await m.post(other, 'hey @**all**', 'news');
  const guestMention = await m.post(other, 'ask @**Gus Guest**', 'news');
  const secret = await m.post(admin, 'plans for @**Mel Member**', 'plans', 'secret');
  const dm = await m.send(admin, { type: 'direct', to: `[${member.id}]`, content: 'hi @**Mel Member**' });
  m.drain();
  return { m, policy, lunch, dinner, quiet, everyone, guestMention, secret, dm };
}

describe('is:followed and is:muted', () => {
  it('follow the reader\'s own policies, case-insensitively, with negation', async () => {
    const { m, policy, lunch, dinner, quiet, everyone, guestMention, secret, dm } = await setup();
    const { member, other } = m;
    await policy(member, m.general.id, 'LUNCH', 3);
    await policy(member, m.secret.id, 'plans', 3);
    await policy(member, m.general.id, 'dinner', 1);
    expect(await m.fetchIds(member, [['is', 'followed']])).toEqual([lunch, secret]);
    expect(await m.fetchIds(member, [['is', 'muted']])).toEqual([dinner, quiet]);
    expect(await m.fetchIds(member, [{ operator: 'is', operand: 'followed', negated: true }])).toEqual([dinner, quiet, everyone, guestMention, dm]);
    expect(await m.fetchIds(member, [['-is', 'muted'], ['channel', 'general']])).toEqual([lunch, everyone, guestMention]);
    // Another user's policies are theirs alone.
    expect(await m.fetchIds(other, [['is', 'followed']])).toEqual([]);
    expect(await m.fetchIds(other, [['is', 'muted']])).toEqual([]);
  });

  it('is:muted takes in a muted channel\'s topics unless they are unmuted or followed', async () => {
    const { m, policy, lunch, dinner, quiet, everyone, guestMention } = await setup();
    const { w, member } = m;
    await setSubscription(w, member, m.general, { isMuted: true });
    await policy(member, m.general.id, 'lunch', 2);
    await policy(member, m.general.id, 'news', 3);
    expect(await m.fetchIds(member, [['is', 'muted']])).toEqual([dinner, quiet]);
    await policy(member, m.general.id, 'lunch', 0);
    expect(await m.fetchIds(member, [['is', 'muted']])).toEqual([lunch, dinner, quiet]);
    expect(await m.fetchIds(member, [['is', 'muted'], ['topic', 'news']])).toEqual([]);
    expect(await m.fetchIds(member, [['channel', 'general'], ['-is', 'muted']])).toEqual([everyone, guestMention]);
  });

  it('matches_narrow and the flags-by-narrow endpoint use them', async () => {
    const { m, policy, lunch, dinner } = await setup();
    const { w, member } = m;
    await policy(member, m.general.id, 'lunch', 3);
    expect(must(await getMatchesNarrow(w.ctx, w.as(member), { msg_ids: [lunch, dinner], narrow: [["is","followed"]] }))).toEqual({
      messages: { [lunch]: { match_content: '<p>lunch at noon</p>', match_subject: 'lunch' } },
    });
    const marked = must(
      await doUpdateMessageFlagsForNarrow(w.ctx, w.as(member), { anchor: 'oldest', num_before: 0, num_after: 100, narrow: [["is","followed"]], op: 'add', flag: 'starred' }),
    );
    expect(marked).toMatchObject({ processed_count: 1, updated_count: 1, first_processed_id: lunch });
    expect(await m.fetchIds(member, [['is', 'starred']])).toEqual([lunch]);
  });
});

describe('mentions', () => {
  it('matches visible direct mentions of the user who holds the mentioned flag, for any reader', async () => {
    const { m, dinner, secret, dm } = await setup();
    const { member, admin, other, guest } = m;
    // Not the silent mention, not the wildcard; the DM and the private channel only for those who may read them.
    expect(await m.fetchIds(member, [['mentions', member.id]])).toEqual([dinner, secret, dm]);
    expect(await m.fetchIds(other, [{ operator: 'mentions', operand: String(member.id) }])).toEqual([dinner]);
    expect(await m.fetchIds(admin, [['mentions', member.id]])).toEqual([dinner, secret, dm]);
    // The guest has no copy of the general message that names them, as in the reference.
    expect(await m.fetchIds(other, [['mentions', guest.id]])).toEqual([]);
    expect(await m.fetchIds(other, [['mentions', member.id], ['channel', 'general'], ['topic', 'dinner']])).toEqual([dinner]);
    expect(await m.fetchIds(other, [{ operator: 'mentions', operand: member.id, negated: true }, ['channel', 'general']])).toEqual(
      (await m.fetchIds(other, [['channel', 'general']])).filter((id) => id !== dinner),
    );
  });

  it('refuses unknown users, emails and other realms\' IDs', async () => {
    const { m } = await setup();
    const fetch = (narrow: unknown) =>
      getMessages.fromTransport(m.w.ctx, m.w.as(m.member), { anchor: 'newest', num_before: 1, num_after: 0, narrow: narrow });
    expectError(await fetch([['mentions', 999999]]), ...badNarrow('unknown user'));
    expectError(await fetch([['mentions', 'mel@example.com']]), ...badNarrow('unknown user'));
    expectError(await fetch([['is', 'follow']]), ...badNarrow("unknown 'is' operand"));
    const far = await secondRealm(m.w.ctx);
    expectError(await fetch([['mentions', far.owner.id]]), ...badNarrow('unknown user'));
  });
});

describe('a queue\'s narrow', () => {
  it('filters message events by mentions; lets is:followed and is:muted through, negated or not', async () => {
    const { m } = await setup();
    const { w, member, other } = m;
    const html = { event_types: '["message"]', apply_markdown: 'true' };
    const mentions = await register(w, member, { ...html, narrow: JSON.stringify([['mentions', String(member.id)]]) });
    const notMentions = await register(w, member, { ...html, narrow: JSON.stringify([{ operator: 'mentions', operand: member.id, negated: true }]) });
    // Markdown source cannot show which user a mention names: such queues get every message.
    const source = await register(w, member, { event_types: '["message"]', narrow: JSON.stringify([['mentions', String(member.id)]]) });
    const followed = await register(w, member, { event_types: '["message"]', narrow: JSON.stringify([['is', 'followed']]) });
    const notMuted = await register(w, member, { event_types: '["message"]', narrow: JSON.stringify([{ operator: 'is', operand: 'muted', negated: true }]) });
    const direct = await m.post(other, 'again @**Mel Member**', 'dinner');
    const silent = await m.post(other, 'again @_**Mel Member**', 'dinner');
    const ids = async (queueId: string) => (await queued(w, member, queueId)).map((e) => (e.message as { id: number }).id);
    expect(await ids(mentions.queue_id)).toEqual([direct]);
    expect(await ids(notMentions.queue_id)).toEqual([silent]);
    expect(await ids(source.queue_id)).toEqual([direct, silent]);
    expect(await ids(followed.queue_id)).toEqual([direct, silent]);
    expect(await ids(notMuted.queue_id)).toEqual([direct, silent]);
  });
});
