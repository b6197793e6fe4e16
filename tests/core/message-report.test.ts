/** POST /messages/{message_id}/report: the Notification Bot's report in the moderation channel, and every refusal. */
import { doReportMessage, doUpdateRealm, NOTIFICATION_BOT_EMAIL } from '@teamchat/core/internal';
import { beforeEach, describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { channel, ids, recipientsOf, register, setStream, subscribe } from './channel-helpers.js';
import { postedReports, report, type ReportWorld, reportWorld, sentAt, stored } from './message-report-helpers.js';
import { history } from './notification-bot-helpers.js';
import { send } from './reaction-helpers.js';
import { failure, otherRealmPoll } from './submessage-helpers.js';

let c: ReportWorld;
let reported: number;
beforeEach(async () => {
  c = await reportWorld();
  reported = await send(c.w, c.member, 'general', 'I squeeze toothpaste from the middle');
});

const mention = (user: { fullName: string; id: number }) => `@_**${user.fullName}|${user.id}**`;

describe('a channel message', () => {
  it('is reported to the moderation channel, in the reported user’s topic, with the reference’s text', async () => {
    c.drain();
    expect(must(await report(c, c.other, reported, 'harassment', 'this is crime against food'))).toEqual({});
    const [posted] = await postedReports(c);
    const general = await channel(c.w, 'general');
    expect(posted).toMatchObject({ sender_email: NOTIFICATION_BOT_EMAIL, subject: 'Mel Member moderation', client: 'Internal' });
    expect(posted!.content).toBe(
      [
        `${mention(c.other)} reported a message sent by ${mention(c.member)} at ${sentAt(await stored(c, reported))}.`,
        '```quote',
        '**Harassment**. this is crime against food',
        '```',
        '',
        `\`\`\` spoiler Original message at #**general>greetings@${reported}**`,
        'I squeeze toothpaste from the middle',
        '```',
      ].join('\n'),
    );
    expect(general.id).not.toBe(c.moderationChannelId);
    // Only the moderation channel's subscribers (and the bot, its sender) learn of it; the
    // reporter gets the confirmation only.
    const bot = (await c.w.ctx.storage.read((tx) => tx.users.byDeliveryEmail(c.w.realm.id, NOTIFICATION_BOT_EMAIL)))!;
    const events = c.drain().filter((p) => p.event.type === 'message');
    const reached = (type: string) =>
      events.filter((p) => (p.event.message as { type: string }).type === type).flatMap((p) => p.userIds).sort((a, b) => a - b);
    expect(reached('stream')).toEqual([...ids(c.w.owner, c.moderator), bot.id].sort((a, b) => a - b));
    expect(reached('private')).toEqual([c.other.id, bot.id].sort((a, b) => a - b));
  });

  it('may be reported by a reader who is not subscribed, and by its own sender', async () => {
    must(await report(c, c.admin, reported, 'spam'));
    must(await report(c, c.member, reported, 'norms'));
    const posted = await postedReports(c);
    expect(posted.map((m) => m.content.split('\n')[2])).toEqual(['**Spam**. ', '**Violates community norms**. ']);
  });

  it('"other" needs a description; every reason has its label', async () => {
    expect(failure(await report(c, c.other, reported, 'other'))).toBe('An explanation is required.');
    expect(failure(await report(c, c.other, reported, 'other', ''))).toBe('An explanation is required.');
    must(await report(c, c.other, reported, 'other', 'Just because.'));
    must(await report(c, c.other, reported, 'inappropriate'));
    expect((await postedReports(c)).map((m) => m.content.split('\n')[2])).toEqual(['**Other reason**. Just because.', '**Inappropriate content**. ']);
  });

  it('a long message is cut to leave room for the report; fences inside it get a longer fence', async () => {
    const long = await send(c.w, c.member, 'general', '.'.repeat(9000));
    must(await report(c, c.other, long, 'spam'));
    const fenced = await send(c.w, c.member, 'general', 'look:\n```\ncode\n```');
    must(await report(c, c.other, fenced, 'spam'));
    const [cut, quoted] = (await postedReports(c)).map((m) => m.content);
    expect(cut).toContain(`${'.'.repeat(8500 - 20)}\n[message truncated]\n\`\`\``);
    expect(cut).not.toContain('.'.repeat(8500 - 19));
    expect(quoted).toContain(`\`\`\`\` spoiler Original message at #**general>greetings@${fenced}**\nlook:\n\`\`\`\ncode\n\`\`\`\n\`\`\`\``);
  });

  it('names that would break the #**…** syntax give a Markdown link instead', async () => {
    await subscribe(c.w, c.w.owner, ['Sw*den'], { principals: [c.w.owner.id, c.member.id] });
    const odd = await send(c.w, c.member, 'Sw*den', 'hej');
    must(await report(c, c.w.owner, odd, 'spam'));
    const slug = `${(await channel(c.w, 'Sw*den')).id}-Sw.2Aden`;
    expect((await postedReports(c))[0]!.content).toContain(`\`\`\` spoiler Original message at [#Sw&#42;den > greetings @ 💬](#narrow/channel/${slug}/topic/greetings/near/${odd})`);
  });

  it('a moderation channel without topics gets the report in its general chat', async () => {
    await setStream(c.w, await channel(c.w, 'moderation'), { topicsPolicy: 'empty_topic_only' });
    must(await report(c, c.other, reported, 'spam'));
    expect((await postedReports(c))[0]!.subject).toBe('');
  });
});

describe('direct messages', () => {
  it('one-on-one: reported by the recipient, by the sender (naming the recipient), and to oneself', async () => {
    const dm = await send(c.w, c.member, [c.other], 'psst');
    must(await report(c, c.other, dm, 'harassment'));
    must(await report(c, c.member, dm, 'harassment'));
    const self = await send(c.w, c.member, [c.member], 'note to self');
    must(await report(c, c.member, self, 'harassment'));
    const [byRecipient, bySender, toSelf] = (await postedReports(c)).map((m) => m.content.split('\n'));
    const at = sentAt(await stored(c, dm));
    const pair = [c.member.id, c.other.id].sort((a, b) => a - b).join(',');
    expect(byRecipient![0]).toBe(`${mention(c.other)} reported a message sent by ${mention(c.member)} at ${at}.`);
    expect(byRecipient![5]).toBe(`\`\`\` spoiler [Original message](http://chat.example.com/#narrow/dm/${pair}/near/${dm})`);
    expect(bySender![0]).toBe(`${mention(c.member)} reported a message sent by ${mention(c.member)} to ${mention(c.other)} at ${at}.`);
    expect(toSelf![0]).toBe(`${mention(c.member)} reported a message sent by ${mention(c.member)} to ${mention(c.member)} at ${sentAt(await stored(c, self))}.`);
    expect(toSelf![5]).toBe(`\`\`\` spoiler [Original message](http://chat.example.com/#narrow/dm/${c.member.id}/near/${self})`);
  });

  it('a group: the report names the other participants; outsiders cannot report it', async () => {
    const group = await send(c.w, c.member, [c.other, c.admin], 'we three');
    must(await report(c, c.other, group, 'spam'));
    const [lines] = (await postedReports(c)).map((m) => m.content.split('\n'));
    const others = [c.admin, c.other].sort((a, b) => a.id - b.id).map(mention);
    expect(lines![0]).toBe(`${mention(c.other)} reported a message sent by ${mention(c.member)} to ${others.join(' and ')} at ${sentAt(await stored(c, group))}.`);
    const all = [c.member.id, c.other.id, c.admin.id].sort((a, b) => a - b).join(',');
    expect(lines![5]).toBe(`\`\`\` spoiler [Original message](http://chat.example.com/#narrow/dm/${all}-group/near/${group})`);
    expect(failure(await report(c, c.moderator, group, 'spam'))).toBe('Invalid message(s)');
  });
});

describe('the confirmation', () => {
  it('the reporter gets a direct message from the Notification Bot naming the message and the reason', async () => {
    must(await report(c, c.other, reported, 'norms'));
    const dm = await send(c.w, c.member, [c.other], 'psst');
    must(await report(c, c.other, dm, 'harassment'));
    const confirmations = (await history(c.w, c.other)).filter((m) => m.sender_email === NOTIFICATION_BOT_EMAIL);
    const general = await channel(c.w, 'general');
    const pair = [c.member.id, c.other.id].sort((a, b) => a - b).join(',');
    expect(confirmations.map((m) => [m.type, m.content])).toEqual([
      ['private', `You reported [a message](http://chat.example.com/#narrow/channel/${general.id}-general/topic/greetings/near/${reported}) for violates community norms.`],
      ['private', `You reported [a message](http://chat.example.com/#narrow/dm/${pair}/near/${dm}) for harassment.`],
    ]);
    expect(confirmations.every((m) => m.flags?.includes('read') === false)).toBe(true);
  });

  it('is not sent when the report fails', async () => {
    await setStream(c.w, await channel(c.w, 'moderation'), { isArchived: true });
    expect(failure(await report(c, c.other, reported, 'spam'))).toBe('Failed to send the message report.');
    expect((await history(c.w, c.other)).filter((m) => m.sender_email === NOTIFICATION_BOT_EMAIL)).toEqual([]);
  });
});

describe('register', () => {
  it('lists the reasons a report may give (FL 435)', async () => {
    const snapshot = await register(c.w, c.other, { fetch_event_types: '["realm"]' });
    expect(snapshot.server_report_message_types).toEqual([
      { key: 'spam', name: 'Spam' },
      { key: 'harassment', name: 'Harassment' },
      { key: 'inappropriate', name: 'Inappropriate content' },
      { key: 'norms', name: 'Violates community norms' },
      { key: 'other', name: 'Other reason' },
    ]);
  });
});

describe('refusals', () => {
  it('no moderation channel configured: refused, nothing posted', async () => {
    must(await doUpdateRealm(c.w.ctx, c.w.as(c.w.owner), { moderation_request_channel_id: -1 }));
    c.drain();
    expect(failure(await report(c, c.other, reported, 'spam'))).toBe('Message reporting is not enabled in this organization.');
    expect(recipientsOf(c.drain(), 'message')).toEqual([]);
  });

  it('an archived moderation channel: the report fails (FL 511), nothing posted', async () => {
    await setStream(c.w, await channel(c.w, 'moderation'), { isArchived: true });
    c.drain();
    expect(failure(await report(c, c.other, reported, 'spam'))).toBe('Failed to send the message report.');
    expect(recipientsOf(c.drain(), 'message')).toEqual([]);
  });

  it('unknown, unreadable and other realms’ messages are "Invalid message(s)"', async () => {
    await subscribe(c.w, c.w.owner, ['vault'], { invite_only: true, principals: [c.w.owner.id] });
    const secret = await send(c.w, c.w.owner, 'vault', 'hidden');
    expect(failure(await report(c, c.other, secret, 'spam'))).toBe('Invalid message(s)');
    expect(failure(await report(c, c.other, 999_999, 'spam'))).toBe('Invalid message(s)');
    expect(failure(await report(c, c.other, await otherRealmPoll(c), 'spam'))).toBe('Invalid message(s)');
    expect(await postedReports(c)).toEqual([]);
  });

  it('bad parameters are 4xx with the reference’s texts', async () => {
    const run = (input: Record<string, unknown>) => doReportMessage.fromTransport(c.w.ctx, c.w.as(c.other), input);
    expect(failure(await run({ message_id: String(reported) }))).toBe("Missing 'report_type' argument");
    expect(failure(await run({ message_id: String(reported), report_type: 'rude' }))).toBe('Invalid report_type');
    expect(failure(await run({ message_id: String(reported), report_type: 'spam', description: 'x'.repeat(1001) }))).toBe(
      'description is too long (limit: 1000 characters)',
    );
    expect(failure(await run({ message_id: 'abc', report_type: 'spam' }))).toBe('message_id is not an integer');
    must(await run({ message_id: String(reported), report_type: 'spam', description: 'x'.repeat(1000) }));
  });
});
