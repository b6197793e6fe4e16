/** Who the push notifier hears about, why, and with what payload (the reference's notification_data and push payloads). */
import { doCreateUserGroup, doUpdateMessage, doUpdatePresence, doUpdateRealm, doUpdateSettings, doUpdateUserTopic, type User } from '@teamchat/core';
import { ok } from 'neverthrow';
import { insertMessage } from '../../packages/core/src/messages/insert.js';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { register, setSubscription, subscribe } from './channel-helpers.js';
import { setAccessGroup } from './user-access-helpers.js';
import { type fakeClock, T0 } from './fixtures.js';
import { general, pushWorld, sendChannel, sendDirect, triggers, type PushWorld } from './push-helpers.js';

const settings = async (p: PushWorld, user: User, values: Record<string, boolean>) => {
  const form = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)]));
  must(await doUpdateSettings(p.w.ctx, p.w.as(user), form));
};
const topicPolicy = async (p: PushWorld, user: User, topic: string, policy: number) =>
  must(await doUpdateUserTopic(p.w.ctx, p.w.as(user), { stream_id: (await general(p)).id, topic, visibility_policy: policy }));

describe('push notifications: who is notified', () => {
  it('a direct message notifies its recipients, never the sender; the payload is the reference FCM one', async () => {
    const p = await pushWorld();
    const { w, member, other } = p;
    const id = await sendDirect(p, member, [other], 'Hello **there** &amp; <b>you</b>');
    const { sent } = await p.settle();
    expect(triggers(sent)).toEqual([[other.id, 'private_message']]);
    expect(sent[0]).toEqual({
      realmId: w.realm.id,
      userId: other.id,
      messageId: id,
      trigger: 'private_message',
      devices: [],
      e2eeDevices: [],
      data: {
        server: 'chat.example.com',
        realm_id: String(w.realm.id),
        realm_name: 'Test Org',
        realm_uri: 'http://chat.example.com',
        realm_url: 'http://chat.example.com',
        user_id: String(other.id),
        sender_id: String(member.id),
        sender_email: expect.any(String),
        time: String(Math.floor(T0 / 1000)),
        recipient_type: 'private',
        event: 'message',
        zulip_message_id: String(id),
        content: 'Hello there & <b>you</b>',
        content_truncated: 'false',
        sender_full_name: 'Mel Member',
        sender_avatar_url: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\/avatar\//),
      },
      e2eeData: {
        recipient_type: 'direct',
        recipient_user_ids: [member.id, other.id].sort((a, b) => a - b),
        content: 'Hello there & <b>you</b>',
        message_id: id,
        realm_name: 'Test Org',
        realm_url: 'http://chat.example.com',
        sender_avatar_url: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\/avatar\//),
        sender_full_name: 'Mel Member',
        sender_id: member.id,
        time: Math.floor(T0 / 1000),
        type: 'message',
        user_id: other.id,
      },
      alert: { title: 'Mel Member', subtitle: '', body: 'Hello there & <b>you</b>' },
    });
  });

  it('a group direct message names its participants; bots and the sender are never notified', async () => {
    const p = await pushWorld();
    const { member, other, admin, bot } = p;
    await sendDirect(p, member, [other, admin, bot], 'group hello');
    const { sent } = await p.settle();
    expect(triggers(sent).sort()).toEqual([[admin.id, 'private_message'], [other.id, 'private_message']].sort());
    const dm = sent.find((n) => n.userId === other.id)!;
    const everyone = [member.id, other.id, admin.id, bot.id].sort((a, b) => a - b);
    expect(dm.data.pm_users).toBe(everyone.join(','));
    expect(dm.e2eeData).toMatchObject({ recipient_type: 'direct', recipient_user_ids: everyone });
    expect(dm.alert).toEqual({ title: 'Ada Admin, Mel Bot, Mel Member, Otto Other', subtitle: 'Mel Member:', body: 'group hello' });
  });

  it('the devices a user registered come with their notifications', async () => {
    const p = await pushWorld();
    const { w, member, other } = p;
    await w.ctx.storage.transaction(async (tx) => {
      await tx.push.addToken(w.realm.id, { userId: other.id, kind: 'fcm', token: 'device-1', iosAppId: null, dateCreated: 1 });
      await tx.push.addToken(w.realm.id, { userId: member.id, kind: 'fcm', token: 'device-2', iosAppId: null, dateCreated: 1 });
      return ok(undefined);
    });
    await sendDirect(p, member, [other], 'hi');
    const { sent } = await p.settle();
    expect(sent.map((n) => n.devices)).toEqual([[{ userId: other.id, kind: 'fcm', token: 'device-1', iosAppId: null, dateCreated: 1 }]]);
  });

  it('channel messages notify only where push is on: the subscription, else the user default; muting wins', async () => {
    const p = await pushWorld();
    const { w, member, other, admin } = p;
    const stream = await general(p);
    await sendChannel(p, member, 'lunch', 'plain message');
    expect((await p.settle()).sent).toEqual([]);

    await setSubscription(w, other, stream, { pushNotifications: true });
    await settings(p, admin, { enable_stream_push_notifications: true });
    const id = await sendChannel(p, member, 'lunch', 'plain message');
    const { sent } = await p.settle();
    expect(triggers(sent).sort()).toEqual([[admin.id, 'stream_push_notify'], [other.id, 'stream_push_notify']].sort());
    const n = sent.find((s) => s.userId === other.id)!;
    expect(n.data).toMatchObject({ recipient_type: 'stream', stream: 'general', stream_id: String(stream.id), topic: 'lunch', zulip_message_id: String(id) });
    expect(n.data.pm_users).toBeUndefined();
    expect(n.e2eeData).toMatchObject({ recipient_type: 'channel', channel_id: stream.id, channel_name: 'general', topic: 'lunch', message_id: id, type: 'message' });
    expect(n.e2eeData.recipient_user_ids).toBeUndefined();
    expect(n.alert).toEqual({ title: '#general > lunch', subtitle: 'Mel Member:', body: 'plain message' });

    // A subscription's own false beats the user's default; a muted topic or channel silences.
    await setSubscription(w, admin, stream, { pushNotifications: false });
    await topicPolicy(p, other, 'lunch', 1);
    await sendChannel(p, member, 'lunch', 'again');
    expect((await p.settle()).sent).toEqual([]);
    await sendChannel(p, member, 'dinner', 'elsewhere');
    expect(triggers((await p.settle()).sent)).toEqual([[other.id, 'stream_push_notify']]);
    await setSubscription(w, other, stream, { isMuted: true });
    await sendChannel(p, member, 'dinner', 'muted channel');
    expect((await p.settle()).sent).toEqual([]);
    // An unmuted topic of a muted channel notifies again.
    await topicPolicy(p, other, 'dinner', 2);
    await sendChannel(p, member, 'dinner', 'unmuted topic');
    expect(triggers((await p.settle()).sent)).toEqual([[other.id, 'stream_push_notify']]);
  });

  it('personal and group mentions notify (smallest group named); enable_offline_push_notifications off silences them and DMs', async () => {
    const p = await pushWorld();
    const { w, member, other, admin } = p;
    must(await doCreateUserGroup(w.ctx, w.as(member), { name: 'crew', description: '', members: [other.id, admin.id] }));
    must(await doCreateUserGroup(w.ctx, w.as(member), { name: 'duo', description: '', members: [other.id] }));
    await sendChannel(p, member, 'plans', 'hey @**Otto Other**');
    let { sent } = await p.settle();
    expect(triggers(sent)).toEqual([[other.id, 'mentioned']]);
    expect(sent[0]!.alert.subtitle).toBe('Mel Member mentioned you:');
    expect(sent[0]!.data.mentioned_user_group_id).toBeUndefined();

    await sendChannel(p, member, 'plans', 'hey @*crew* and @*duo*');
    ({ sent } = await p.settle());
    expect(triggers(sent).sort()).toEqual([[admin.id, 'mentioned'], [other.id, 'mentioned']].sort());
    const otto = sent.find((n) => n.userId === other.id)!;
    expect(otto.data).toMatchObject({ mentioned_user_group_name: 'duo', mentioned_user_group_id: expect.stringMatching(/^\d+$/) });
    expect(otto.e2eeData).toMatchObject({ mentioned_user_group_name: 'duo', mentioned_user_group_id: Number(otto.data.mentioned_user_group_id) });
    expect(otto.alert.subtitle).toBe('Mel Member mentioned @duo:');
    expect(sent.find((n) => n.userId === admin.id)!.data.mentioned_user_group_name).toBe('crew');

    await settings(p, other, { enable_offline_push_notifications: false });
    // The mention made Otto follow "plans" only after it was sent: a new topic's first mention is silent.
    await sendChannel(p, member, 'fresh', 'hey @**Otto Other**');
    await sendDirect(p, member, [other], 'psst');
    expect((await p.settle()).sent).toEqual([]);
    // Followed topics have their own setting, which enable_offline_push_notifications does not touch.
    // (Ada follows it too, mentioned through "crew".)
    await sendChannel(p, member, 'plans', 'hey @**Otto Other**');
    expect(triggers((await p.settle()).sent).sort()).toEqual([[admin.id, 'followed_topic_push_notify'], [other.id, 'followed_topic_push_notify']].sort());
  });

  it('wildcard mentions follow wildcard_mentions_notify (the subscription first); followed topics notify on their own settings', async () => {
    const p = await pushWorld();
    const { w, member, other, admin } = p;
    const stream = await general(p);
    await sendChannel(p, member, 'news', '@**all** listen');
    const { sent } = await p.settle();
    expect(triggers(sent).sort()).toEqual([[admin.id, 'stream_wildcard_mentioned'], [other.id, 'stream_wildcard_mentioned']].sort());
    expect(sent[0]!.alert.subtitle).toBe('Mel Member mentioned everyone:');

    await settings(p, admin, { wildcard_mentions_notify: false });
    await setSubscription(w, other, stream, { wildcardMentionsNotify: false });
    await sendChannel(p, member, 'news', '@**all** again');
    expect((await p.settle()).sent).toEqual([]);

    // Following the topic: wildcards notify through enable_followed_topic_wildcard_mentions_notify,
    // plain messages through enable_followed_topic_push_notifications.
    await topicPolicy(p, other, 'news', 3);
    await sendChannel(p, member, 'news', '@**all** followed');
    expect(triggers((await p.settle()).sent)).toEqual([[other.id, 'stream_wildcard_mentioned_in_followed_topic']]);
    await sendChannel(p, other, 'news', 'I am a participant now');
    await p.settle();
    await sendChannel(p, member, 'news', '@**topic** participants');
    expect(triggers((await p.settle()).sent)).toEqual([[other.id, 'topic_wildcard_mentioned_in_followed_topic']]);
    await sendChannel(p, member, 'news', 'plain in followed topic');
    expect(triggers((await p.settle()).sent)).toEqual([[other.id, 'followed_topic_push_notify']]);
    await settings(p, other, { enable_followed_topic_push_notifications: false });
    await sendChannel(p, member, 'news', 'plain again');
    expect((await p.settle()).sent).toEqual([]);
  });

  it('a user with a client receiving messages and recent activity is notified only with enable_online_push_notifications', async () => {
    const p = await pushWorld();
    const { w, member, other } = p;
    await register(w, other);
    must(await doUpdatePresence(w.ctx, w.as(other), { status: 'active' }));
    await sendDirect(p, member, [other], 'online one');
    expect(triggers((await p.settle()).sent)).toEqual([[other.id, 'private_message']]);
    await settings(p, other, { enable_online_push_notifications: false });
    await sendDirect(p, member, [other], 'online two');
    expect((await p.settle()).sent).toEqual([]);
    // An open client whose user has not been active within the offline threshold is away (the reference's presence idleness).
    (w.ctx.clock as ReturnType<typeof fakeClock>).advance(141_000);
    await sendDirect(p, member, [other], 'tab left open');
    expect(triggers((await p.settle()).sent)).toEqual([[other.id, 'private_message']]);
    // A queue that takes no message events does not count as being online.
    const idle = await pushWorld();
    await register(idle.w, idle.other, { event_types: JSON.stringify(['realm_user']) });
    must(await doUpdatePresence(idle.w.ctx, idle.w.as(idle.other), { status: 'active' }));
    await settings(idle, idle.other, { enable_online_push_notifications: false });
    await sendDirect(idle, idle.member, [idle.other], 'offline');
    expect(triggers((await idle.settle()).sent)).toEqual([[idle.other.id, 'private_message']]);
  });

  it('where the realm keeps no presence, any client receiving messages counts as online', async () => {
    const p = await pushWorld();
    const { w, member, other } = p;
    must(await doUpdateRealm(w.ctx, w.as(w.owner), { presence_disabled: true }));
    await register(w, other);
    await settings(p, other, { enable_online_push_notifications: false });
    await sendDirect(p, member, [other], 'hello');
    expect((await p.settle()).sent).toEqual([]);
  });

  it('long content is cut at 200 characters', async () => {
    const p = await pushWorld();
    await sendDirect(p, p.member, [p.other], 'x'.repeat(250));
    const [long] = (await p.settle()).sent;
    expect(long!.data.content).toBe(`${'x'.repeat(200)}…`);
    expect(long!.data.content_truncated).toBe('true');
    expect(long!.e2eeData.content).toBe(long!.data.content);
    expect(long!.alert.body).toBe(long!.data.content);
  });

  it('a restricted guest is told of a sender they may not access as "Unknown user"', async () => {
    const p = await pushWorld();
    const { w, guest, other } = p;
    const sam = await w.addUser({ email: 'sam@example.com', fullName: 'Sam Stranger' });
    await subscribe(w, w.owner, ['general'], { principals: [guest.id] });
    const stream = await general(p);
    for (const user of [guest, other]) await setSubscription(w, user, stream, { pushNotifications: true });
    await setAccessGroup(w, 'role:members');
    await sendChannel(p, sam, 'news', 'from afar');
    const { sent } = await p.settle();
    const toGuest = sent.find((n) => n.userId === guest.id)!;
    expect(toGuest.data).toMatchObject({ sender_id: String(sam.id), sender_full_name: 'Unknown user', sender_email: `user${sam.id}@chat.example.com`, sender_avatar_url: 'http://chat.example.com/static/images/unknown-user-avatar.png' });
    expect(toGuest.e2eeData).toMatchObject({ sender_id: sam.id, sender_full_name: 'Unknown user' });
    expect(toGuest.alert.subtitle).toBe('Unknown user:');
    expect(sent.find((n) => n.userId === other.id)!.data).toMatchObject({ sender_full_name: 'Sam Stranger', sender_email: 'sam@example.com' });
  });

  it('a copy stored already read is not notified (how muted senders stay silent, as in the reference)', async () => {
    const p = await pushWorld();
    const { w, member, other, admin } = p;
    // The muted-users send path stores a muted sender's message read for whoever muted them; readBy does the same here.
    await w.ctx.storage.transaction(async (tx) => {
      await insertMessage(w.ctx, tx, w.realm, member, { kind: 'private', participants: [member, other, admin] }, 'muted hello', { readBy: [other.id] });
      return ok(undefined);
    });
    expect(triggers((await p.settle()).sent)).toEqual([[admin.id, 'private_message']]);
  });

  it('an edit that newly mentions someone notifies them; repeats, direct messages and channel-push users hear nothing', async () => {
    const p = await pushWorld();
    const { w, member, other, admin } = p;
    const stream = await general(p);
    const id = await sendChannel(p, member, 'plans', 'plain');
    const dm = await sendDirect(p, member, [admin], 'plain dm');
    await p.settle();
    const edit = async (messageId: number, content: string) => must(await doUpdateMessage(w.ctx, w.as(member), { message_id: messageId, content }));
    await edit(id, 'now @**Otto Other**');
    const { sent } = await p.settle();
    expect(triggers(sent)).toEqual([[other.id, 'mentioned']]);
    expect(sent[0]!.data).toMatchObject({ zulip_message_id: String(id), content: 'now @Otto Other' });
    // Still mentioned: no second notification. A DM edit never notifies.
    await edit(id, 'still @**Otto Other**!');
    await edit(dm, 'edited @**Ada Admin**');
    expect((await p.settle()).sent).toEqual([]);
    // Ada has channel push on: she was told of the message when it was sent, not again for a mention.
    await setSubscription(w, admin, stream, { pushNotifications: true });
    const second = await sendChannel(p, member, 'plans', 'another');
    expect(triggers((await p.settle()).sent)).toEqual([[admin.id, 'stream_push_notify']]);
    await edit(second, 'another @**Ada Admin**');
    expect((await p.settle()).sent).toEqual([]);
  });
});
