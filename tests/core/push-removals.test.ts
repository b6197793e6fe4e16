/** Taking notifications back when messages are read or deleted, and a notifier that fails or hangs. */
import { doDeleteMessage, doMarkAllAsRead, doMuteUser, doSendMessage, doUpdateMessageFlags, getMessages, pushJobsSettled } from '@teamchat/core/internal';
import { ok } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import { pushWorld, sendChannel, sendDirect, triggers } from './push-helpers.js';

describe('push notification removals', () => {
  it('reading notified messages removes them from the devices, once; unnotified ones send nothing', async () => {
    const p = await pushWorld();
    const { w, member, other, admin } = p;
    const first = await sendDirect(p, member, [other], 'one');
    const second = await sendDirect(p, member, [other], 'two');
    const quiet = await sendChannel(p, member, 'lunch', 'nobody is notified of this');
    expect((await p.settle()).sent).toHaveLength(2);

    must(await doUpdateMessageFlags(w.ctx, w.as(other), { messages: [first, second, quiet], op: 'add', flag: 'read' }));
    const { removed } = await p.settle();
    expect(removed).toEqual([
      {
        realmId: w.realm.id,
        userId: other.id,
        messageIds: [first, second],
        devices: [],
      e2eeDevices: [],
        data: {
          server: 'chat.example.com',
          realm_id: String(w.realm.id),
          realm_name: 'Test Org',
          realm_uri: 'http://chat.example.com',
          realm_url: 'http://chat.example.com',
          user_id: String(other.id),
          event: 'remove',
          zulip_message_ids: `${first},${second}`,
          zulip_message_id: String(first),
        },
        e2eeData: { message_ids: [first, second], realm_name: 'Test Org', realm_url: 'http://chat.example.com', type: 'remove', user_id: other.id },
      },
    ]);
    // Unread then read again: the notification is already gone.
    must(await doUpdateMessageFlags(w.ctx, w.as(other), { messages: [first], op: 'remove', flag: 'read' }));
    must(await doUpdateMessageFlags(w.ctx, w.as(other), { messages: [first], op: 'add', flag: 'read' }));
    expect((await p.settle()).removed).toEqual([]);

    // Mark-all-as-read goes through the same path.
    const third = await sendDirect(p, admin, [other], 'three');
    await p.settle();
    must(await doMarkAllAsRead(w.ctx, w.as(other), {}));
    expect((await p.settle()).removed.map((r) => [r.userId, r.messageIds])).toEqual([[other.id, [third]]]);
  });

  it('a removal names the newest 200 messages at most, and forgets the older ones too', async () => {
    const p = await pushWorld();
    const { w, member, other } = p;
    const ids: number[] = [];
    for (let i = 0; i < 202; i++) ids.push(await sendDirect(p, member, [other], `message ${i}`));
    expect((await p.settle()).sent).toHaveLength(202);
    must(await doMarkAllAsRead(w.ctx, w.as(other), {}));
    const [removal] = (await p.settle()).removed;
    expect(removal!.messageIds).toEqual(ids.slice(2));
    expect(removal!.data.zulip_message_ids).toBe(ids.slice(2).join(','));
    const left = await w.ctx.storage.transaction(async (tx) => ok(await tx.push.clearNotified(w.realm.id, [other.id], ids)));
    expect(left.isOk() && left.value.size).toBe(0);
  });

  it('muting a sender takes their notified messages back and silences what they send next', async () => {
    const p = await pushWorld();
    const { w, member, other, admin } = p;
    const id = await sendDirect(p, member, [other], 'before the mute');
    expect((await p.settle()).sent).toHaveLength(1);
    must(await doMuteUser(w.ctx, w.as(other), { muted_user_id: member.id }));
    expect((await p.settle()).removed.map((r) => [r.userId, r.messageIds])).toEqual([[other.id, [id]]]);
    await sendDirect(p, member, [other, admin], 'after the mute');
    expect(triggers((await p.settle()).sent)).toEqual([[admin.id, 'private_message']]);
  });

  it('deleting a notified message removes it from every notified recipient', async () => {
    const p = await pushWorld();
    const { w, member, other, admin } = p;
    const id = await sendChannel(p, member, 'oops', '@**Otto Other** @**Ada Admin** oops');
    expect((await p.settle()).sent).toHaveLength(2);
    must(await doDeleteMessage(w.ctx, w.as(w.owner), { message_id: id }));
    const { removed } = await p.settle();
    expect(removed.map((r) => [r.userId, r.messageIds, r.data.event]).sort()).toEqual(
      [[other.id, [id], 'remove'], [admin.id, [id], 'remove']].sort(),
    );
  });

  it('a notifier that throws, rejects or never answers affects neither the send nor other recipients', async () => {
    const p = await pushWorld();
    const { w, member, other, admin, moderator } = p;
    Object.assign(p.notifier.fail, { throwFor: [other.id], rejectFor: [admin.id], hangFor: [moderator.id] });
    const id = await sendDirect(p, member, [other, admin, moderator], 'still delivered');
    const { sent } = await p.settle();
    expect(triggers(sent).map(([userId]) => userId).sort()).toEqual([other.id, admin.id, moderator.id].sort());
    const messages = must(await getMessages(w.ctx, w.as(other), { anchor: String(id), num_before: 0, num_after: 0 })) as { messages: { id: number }[] };
    expect(messages.messages.map((m) => m.id)).toEqual([id]);
    // Removals still go out after the failures.
    must(await doUpdateMessageFlags(w.ctx, w.as(other), { messages: [id], op: 'add', flag: 'read' }));
    expect((await p.settle()).removed.map((r) => r.userId)).toEqual([other.id]);
  });

  it('without a notifier nothing is recorded, and sends and reads work as before', async () => {
    const w = await makeWorld();
    const other = await w.addUser({ email: 'otto@example.com', fullName: 'Otto Other' });
    const { id } = must(await doSendMessage(w.ctx, w.as(w.owner), { type: 'direct', to: JSON.stringify([other.id]), content: 'hi' }));
    must(await doUpdateMessageFlags(w.ctx, w.as(other), { messages: [id], op: 'add', flag: 'read' }));
    await pushJobsSettled(w.ctx);
    const recorded = await w.ctx.storage.transaction(async (tx) => ok(await tx.push.clearNotified(w.realm.id, [other.id], [id])));
    expect(recorded.isOk() && recorded.value.size).toBe(0);
  });
});
