/**
 * GET /messages keeps each message's rows per process under its format stamp
 * (messages/page-rows.ts). These tests hold it to what it must never change: every answer is
 * byte for byte the answer of a storage handle that has kept nothing (a fresh handle over the
 * same database), on a varied history and after every kind of change that alters a page. The
 * page is read before each change, so that the kept rows are what the change must invalidate.
 */
import {
  type Ctx,
  doAddLinkifier,
  doAddReaction,
  doDeleteMessage,
  doRemoveReaction,
  doSendSubmessage,
  doUpdateMessage,
  doUpdateMessageFlags,
  doUpdateRealm,
  doUpdateSettings,
  doUpdateStream,
  doUploadAvatar,
  getMessages,
  type User,
} from '@teamchat/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { must, uncached } from '../helpers/core.js';
import { type EditWorld, editWorld } from './message-edit-helpers.js';
import { imageFile, png } from './image-fixtures.js';

let e: EditWorld;
let ids: number[];

/** GET /messages as `user` (with the realm as stored now, as authentication reads it), as JSON text. */
async function page(ctx: Ctx, user: User, params: Record<string, unknown> = {}): Promise<string> {
  const realm = await ctx.storage.read(async (tx) => (await tx.realms.byId(e.w.realm.id))!);
  const answer = must(await getMessages.fromTransport(ctx, { realm, user }, { anchor: 'newest', num_before: 100, num_after: 0, narrow: '[]', ...params }));
  return JSON.stringify(answer);
}

/** The page as `user` reads it now, after checking it equals an uncached read (twice: once kept, once reused). */
async function checkedPage(user: User, params: Record<string, unknown> = {}): Promise<string> {
  const fresh = await page(uncached(e.w.ctx), user, params);
  expect(await page(e.w.ctx, user, params)).toBe(fresh);
  expect(await page(e.w.ctx, user, params)).toBe(fresh);
  return fresh;
}

/** Reads the owner's page, applies `change`, and checks the next page shows it, exactly as an uncached read does. */
async function expectSeen(change: () => Promise<unknown>, viewer = () => e.owner): Promise<void> {
  const before = await checkedPage(viewer());
  await change();
  const after = await checkedPage(viewer());
  expect(after).not.toBe(before);
}

beforeEach(async () => {
  e = await editWorld();
  ids = [
    await e.send(e.owner, 'general', 'lunch', 'Hello **world** with a "quote" and <b>html</b>'),
    await e.send(e.alice, 'general', 'lunch', 'second'),
    await e.send(e.bob, 'general', 'issue #12', 'tracker topic'),
    await e.send(e.owner, 'other', '', 'empty topic'),
    await e.dm(e.alice, [e.owner, e.bob], 'a group DM'),
    await e.send(e.alice, 'general', 'poll', '/poll Lunch?\nPizza\nSoup'),
    await e.send(e.owner, 'general', 'lunch', '/me waves'),
  ];
  must(await doAddReaction(e.w.ctx, e.w.as(e.alice), { message_id: ids[0]!, emoji_name: 'smile' }));
  must(await doUpdateMessage(e.w.ctx, e.w.as(e.owner), { message_id: ids[6]!, content: '/me waves twice' }));
});

describe('GET /messages with kept rows', () => {
  it('answers byte for byte as an uncached read, for every viewer and option', async () => {
    for (const user of [e.owner, e.alice, e.bob, e.guest]) {
      for (const params of [{}, { apply_markdown: false }, { client_gravatar: true }, { allow_empty_topic_name: true }, { narrow: JSON.stringify([{ operator: 'search', operand: 'lunch' }]) }]) {
        await checkedPage(user, params);
      }
    }
    await checkedPage(e.owner, { message_ids: JSON.stringify(ids), anchor: undefined, num_before: undefined, num_after: undefined });
  });

  it('shows an edit of content or topic, and a move', async () => {
    await expectSeen(() => doUpdateMessage(e.w.ctx, e.w.as(e.owner), { message_id: ids[0]!, content: 'edited' }).then(must));
    await expectSeen(() => doUpdateMessage(e.w.ctx, e.w.as(e.owner), { message_id: ids[1]!, topic: 'dinner', propagate_mode: 'change_one' }).then(must));
    await expectSeen(() => doUpdateMessage(e.w.ctx, e.w.as(e.owner), { message_id: ids[2]!, stream_id: e.other }).then(must));
  });

  it('shows a reaction added and removed, a submessage and a deletion', async () => {
    await expectSeen(() => doAddReaction(e.w.ctx, e.w.as(e.bob), { message_id: ids[1]!, emoji_name: 'tada' }).then(must));
    await expectSeen(() => doRemoveReaction(e.w.ctx, e.w.as(e.alice), { message_id: ids[0]!, emoji_name: 'smile' }).then(must));
    const vote = JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 });
    await expectSeen(() => doSendSubmessage(e.w.ctx, e.w.as(e.bob), { message_id: ids[5]!, msg_type: 'widget', content: vote }).then(must));
    await expectSeen(() => doDeleteMessage(e.w.ctx, e.w.as(e.owner), { message_id: ids[3]! }).then(must));
  });

  it("shows a sender's new name, avatar and email visibility", async () => {
    await expectSeen(() => doUpdateSettings(e.w.ctx, e.w.as(e.alice), { full_name: 'Alice Renamed' }).then(must));
    await expectSeen(() => doUploadAvatar(e.w.ctx, e.w.as(e.alice), { file: imageFile(png(8, 8)) }).then(must));
    await expectSeen(() => doUpdateSettings(e.w.ctx, e.w.as(e.alice), { email_address_visibility: 3 }).then(must), () => e.bob);
  });

  it("shows a channel's new name, a new linkifier and the realm's edit history setting", async () => {
    await expectSeen(() => doUpdateStream(e.w.ctx, e.w.as(e.owner), { stream_id: e.general, new_name: 'renamed' }).then(must));
    await expectSeen(() => doAddLinkifier(e.w.ctx, e.w.as(e.owner), { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example.com/{id}' }).then(must));
    await expectSeen(() => doUpdateRealm(e.w.ctx, e.w.as(e.owner), { message_edit_history_visibility_policy: 'none' }).then(must));
  });

  it("shows the viewer's flags", async () => {
    await expectSeen(() => doUpdateMessageFlags(e.w.ctx, e.w.as(e.owner), { messages: [ids[1]!], op: 'add', flag: 'starred' }).then(must));
    await expectSeen(() => doUpdateMessageFlags(e.w.ctx, e.w.as(e.owner), { messages: [ids[1]!], op: 'add', flag: 'read' }).then(must));
  });

  it('shows a change made through another handle on the same database (another process)', async () => {
    const other = uncached(e.w.ctx);
    await expectSeen(() => doUpdateMessage(other, e.w.as(e.owner), { message_id: ids[0]!, content: 'edited elsewhere' }).then(must));
    await expectSeen(() => doAddReaction(other, e.w.as(e.bob), { message_id: ids[0]!, emoji_name: 'tada' }).then(must));
  });
});
