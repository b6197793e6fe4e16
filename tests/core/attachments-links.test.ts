/**
 * Uploads linked by messages in the core: claiming on send and edit, who may download through
 * a message, has:attachment, and files going with the last message linking them.
 */
import { doDeleteMessage, doDeleteTopic, doUpdateMessage, memoryBlobStore } from '@teamchat/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { recipientsOf } from './channel-helpers.js';
import { attachmentsOf, canDownload, file, linkTo, uploadAs } from './attachment-helpers.js';
import { type MessageWorld, messageWorld } from './message-helpers.js';

let m: MessageWorld;
let blobs: ReturnType<typeof memoryBlobStore>;
beforeEach(async () => {
  blobs = memoryBlobStore();
  m = await messageWorld({ uploads: blobs });
});

const dm = (from: MessageWorld['member'], to: MessageWorld['member'][], content: string) =>
  m.send(from, { type: 'direct', to: JSON.stringify(to.map((u) => u.id)), content });

describe('linking on send', () => {
  it('a channel message claims the upload: owner gets attachment/update with message_ids; has:attachment finds it', async () => {
    const up = await uploadAs(m.w, m.member, file('plan.txt'));
    m.drain();
    const id = await m.post(m.member, `see ${linkTo(up)}`);
    const plain = await m.post(m.member, 'no file here');
    const events = m.drain().filter((p) => p.event.type === 'attachment');
    expect(recipientsOf(events, 'attachment', 'update')).toEqual([[m.member.id]]);
    expect(events[0]!.event).toMatchObject({ op: 'update', attachment: { id: 1, message_ids: [id] }, upload_space_used: 5 });
    expect((await attachmentsOf(m.w, m.member)).attachments[0]!.message_ids).toEqual([id]);
    expect(await m.fetchIds(m.member, [{ operator: 'has', operand: 'attachment' }])).toEqual([id]);
    expect(await m.fetchIds(m.member, [{ operator: 'has', operand: 'attachment', negated: true }])).toContain(plain);
  });

  it('public channel history: every member may download, even without a subscription; a guest who cannot read it may not', async () => {
    const up = await uploadAs(m.w, m.member, file('plan.txt'));
    await m.post(m.member, linkTo(up));
    for (const user of [m.w.owner, m.admin, m.moderator, m.other, m.member]) expect(await canDownload(m.w, user, up.pathId)).toBe(true);
    expect(await canDownload(m.w, m.guest, up.pathId)).toBe(false);
  });

  it('private channel and direct message: only those who may read the message', async () => {
    const secret = await uploadAs(m.w, m.member, file('secret.txt'));
    await m.post(m.member, linkTo(secret), 'hush', 'secret');
    expect(await canDownload(m.w, m.admin, secret.pathId)).toBe(true);
    for (const user of [m.w.owner, m.moderator, m.other, m.guest]) expect(await canDownload(m.w, user, secret.pathId)).toBe(false);

    const direct = await uploadAs(m.w, m.member, file('direct.txt'));
    await dm(m.member, [m.guest], linkTo(direct));
    expect(await canDownload(m.w, m.guest, direct.pathId)).toBe(true);
    for (const user of [m.w.owner, m.admin, m.other]) expect(await canDownload(m.w, user, direct.pathId)).toBe(false);
  });

  it('links to uploads the sender cannot read are not claimed (and grant nothing); readable ones may be reshared', async () => {
    const up = await uploadAs(m.w, m.member, file('mine.txt'));
    m.drain();
    const stolen = await dm(m.other, [m.guest], `look ${linkTo(up)}`);
    expect(m.drain().filter((p) => p.event.type === 'attachment')).toEqual([]);
    expect(await canDownload(m.w, m.guest, up.pathId)).toBe(false);
    expect(await m.fetchIds(m.other, [{ operator: 'has', operand: 'attachment' }])).toEqual([]);

    const first = await dm(m.member, [m.other], linkTo(up));
    const reshared = await dm(m.other, [m.guest], `again ${linkTo(up)}`);
    expect(await canDownload(m.w, m.guest, up.pathId)).toBe(true);
    expect((await attachmentsOf(m.w, m.member)).attachments[0]!.message_ids).toEqual([first]);
    expect(await m.fetchIds(m.guest, [{ operator: 'has', operand: 'attachment' }])).toEqual([reshared]);
    expect(stolen).toBeLessThan(first);
  });

  it("message_ids leave out messages the owner cannot read (another user's reshare in a private conversation)", async () => {
    const up = await uploadAs(m.w, m.member, file('plan.txt'));
    const shared = await m.post(m.member, linkTo(up));
    await dm(m.other, [m.guest], linkTo(up));
    expect((await attachmentsOf(m.w, m.member)).attachments[0]!.message_ids).toEqual([shared]);
  });

  it('links to unknown paths, other realms and external hosts claim nothing', async () => {
    const up = await uploadAs(m.w, m.member, file('plan.txt'));
    await m.post(m.member, `[a](/user_uploads/${up.pathId}x) [b](https://elsewhere.example.org${up.url}) [c](/user_uploads/99/${up.pathId.split('/').slice(1).join('/')})`);
    expect((await attachmentsOf(m.w, m.member)).attachments[0]!.message_ids).toEqual([]);
    expect(await m.fetchIds(m.member, [{ operator: 'has', operand: 'attachment' }])).toEqual([]);
  });
});

describe('linking on edit', () => {
  it('removing the link detaches the file (detached_uploads, update event), adding one claims it', async () => {
    const a = await uploadAs(m.w, m.member, file('a.txt'));
    const b = await uploadAs(m.w, m.member, file('b.txt'));
    const id = await m.post(m.member, linkTo(a));
    m.drain();
    const edit = must(await doUpdateMessage(m.w.ctx, m.w.as(m.member), { message_id: id, content: `now ${linkTo(b)}` }));
    expect(edit).toEqual({ detached_uploads: [{ id: 1, name: 'a.txt', path_id: a.pathId, size: 5, create_time: expect.any(Number), message_ids: [] }] });
    const events = m.drain().filter((p) => p.event.type === 'attachment');
    expect(events.map((p) => [p.event.op, (p.event.attachment as { id: number; message_ids: number[] }).message_ids])).toEqual([['update', []], ['update', [id]]]);
    expect(recipientsOf(events, 'attachment')).toEqual([[m.member.id], [m.member.id]]);
    expect(await canDownload(m.w, m.other, a.pathId)).toBe(false);
    expect(await canDownload(m.w, m.other, b.pathId)).toBe(true);
    // A detached file stays until its owner deletes it or the sweep does.
    expect(blobs.keys()).toHaveLength(2);
    expect(await m.fetchIds(m.member, [{ operator: 'has', operand: 'attachment' }])).toEqual([id]);
    expect(must(await doUpdateMessage(m.w.ctx, m.w.as(m.member), { message_id: id, content: 'nothing' }))).toMatchObject({ detached_uploads: [{ id: 2 }] });
    expect(await m.fetchIds(m.member, [{ operator: 'has', operand: 'attachment' }])).toEqual([]);
  });

  it('an edit keeping the link changes nothing; a file still linked elsewhere is not detached', async () => {
    const a = await uploadAs(m.w, m.member, file('a.txt'));
    const id = await m.post(m.member, linkTo(a));
    await m.post(m.member, `also ${linkTo(a)}`);
    m.drain();
    expect(must(await doUpdateMessage(m.w.ctx, m.w.as(m.member), { message_id: id, content: `edited ${linkTo(a)}` }))).toEqual({ detached_uploads: [] });
    expect(m.drain().filter((p) => p.event.type === 'attachment')).toEqual([]);
    expect(must(await doUpdateMessage(m.w.ctx, m.w.as(m.member), { message_id: id, content: 'gone' }))).toEqual({ detached_uploads: [] });
  });
});

describe('deleting messages', () => {
  it('the file goes with the last message linking it: row, blob and an attachment/remove event to the owner', async () => {
    const up = await uploadAs(m.w, m.member, file('a.txt', '1234'));
    const first = await m.post(m.member, linkTo(up));
    const second = await m.post(m.admin, linkTo(up));
    must(await doDeleteMessage(m.w.ctx, m.w.as(m.w.owner), { message_id: first }));
    expect(blobs.keys()).toEqual([up.pathId]);
    expect((await attachmentsOf(m.w, m.member)).attachments[0]!.message_ids).toEqual([second]);
    m.drain();
    must(await doDeleteMessage(m.w.ctx, m.w.as(m.w.owner), { message_id: second }));
    const events = m.drain().filter((p) => p.event.type === 'attachment');
    expect(events.map((p) => p.event)).toEqual([{ type: 'attachment', op: 'remove', attachment: { id: 1 }, upload_space_used: 0 }]);
    expect(recipientsOf(events, 'attachment')).toEqual([[m.member.id]]);
    expect(blobs.keys()).toEqual([]);
    expect(await attachmentsOf(m.w, m.member)).toEqual({ attachments: [], upload_space_used: 0 });
  });

  it('deleting a topic deletes the files only its messages linked', async () => {
    const doomed = await uploadAs(m.w, m.member, file('doomed.txt'));
    const kept = await uploadAs(m.w, m.member, file('kept.txt'));
    await m.post(m.member, `${linkTo(doomed)} ${linkTo(kept)}`, 'doomed');
    await m.post(m.member, linkTo(kept), 'other');
    expect(must(await doDeleteTopic(m.w.ctx, m.w.as(m.w.owner), { stream_id: m.general.id, topic_name: 'doomed' }))).toEqual({ complete: true });
    expect(blobs.keys()).toEqual([kept.pathId]);
    expect((await attachmentsOf(m.w, m.member)).attachments.map((a) => a.name)).toEqual(['kept.txt']);
  });

  it('a refused deletion removes nothing', async () => {
    const up = await uploadAs(m.w, m.member, file('a.txt'));
    const id = await m.post(m.member, linkTo(up));
    m.drain();
    expect((await doDeleteMessage(m.w.ctx, m.w.as(m.other), { message_id: id })).isErr()).toBe(true);
    expect(m.drain()).toEqual([]);
    expect(blobs.keys()).toEqual([up.pathId]);
  });
});
