/**
 * GET /messages keeps each message's rows per process under its format stamp
 * (messages/page-rows.ts), its senders under the users' state token and the reader's channels
 * under the channel state token. These tests hold it to what it must never change: every answer
 * is byte for byte the answer of a storage handle that has kept nothing (a fresh handle over the
 * same database), and each record is what formatForViewer makes without a storage (formatMessage
 * with the flags), both as served (toJson) and as its objects say (JSON.stringify), for every
 * viewer and every combination of the three options read in turns; and every input of a record
 * (rows, flags, users, channel names, linkifiers, realm fields and settings), changed by this
 * process or another handle on the database, is seen on the next page. Each page is read before
 * the change, so that whatever a page keeps is what the change must invalidate.
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
  type Realm,
  type User,
} from '@teamchat/core';
import { toJson } from '@teamchat/core/internal';
import { beforeEach, describe, expect, it } from 'vitest';
import { formatForViewer, readableBy } from '../../packages/core/src/queries/messages.js';
import { must, uncached } from '../helpers/core.js';
import { imageFile, png } from './image-fixtures.js';
import { type EditWorld, editWorld } from './message-edit-helpers.js';

let e: EditWorld;
let ids: number[];

type Params = Record<string, unknown>;
const storedRealm = () => e.w.ctx.storage.read(async (tx) => (await tx.realms.byId(e.w.realm.id))!);

/** GET /messages as `user` (with the realm as stored now, as authentication reads it). */
async function answer(ctx: Ctx, user: User, params: Params, realm?: Realm) {
  const caller = { realm: realm ?? (await storedRealm()), user };
  return must(await getMessages.fromTransport(ctx, caller, { anchor: 'newest', num_before: 100, num_after: 0, narrow: '[]', ...params })) as { messages: Array<{ id: number }> };
}

/**
 * The answer of a handle that keeps nothing; without a narrow (no search highlights) also with
 * each record as formatForViewer makes it without a storage: nothing kept, flags formatted in.
 */
async function reference(user: User, params: Params, realm?: Realm): Promise<string> {
  const fresh = await answer(uncached(e.w.ctx), user, params, realm);
  if (params.narrow !== undefined) return JSON.stringify(fresh);
  const realmNow = realm ?? (await storedRealm());
  const records = await e.w.ctx.storage.read(async (tx) =>
    formatForViewer(tx, realmNow, user, await tx.messages.byIds(realmNow.id, fresh.messages.map((m) => m.id)), (await readableBy(tx, user)).streamNames, {
      applyMarkdown: params.apply_markdown !== false,
      clientGravatar: params.client_gravatar !== false,
      emptyTopicName: params.allow_empty_topic_name === true,
    }),
  );
  expect(JSON.stringify({ ...fresh, messages: records })).toBe(JSON.stringify(fresh));
  return JSON.stringify(fresh);
}

/** The page as `user` reads it now (served text), checked against the reference twice: once kept, once reused. */
async function checkedPage(user: User, params: Params = {}, realm?: Realm): Promise<string> {
  const expected = await reference(user, params, realm);
  for (let i = 0; i < 2; i++) {
    const got = await answer(e.w.ctx, user, params, realm);
    expect(toJson(got)).toBe(expected);
    expect(JSON.stringify(got)).toBe(expected);
  }
  return expected;
}

/** Reads the page, applies `change`, and checks the next page shows it, exactly as the reference does. */
async function expectSeen(change: () => Promise<unknown>, viewer = () => e.owner, params: Params = {}): Promise<void> {
  const before = await checkedPage(viewer(), params);
  await change();
  const after = await checkedPage(viewer(), params);
  expect(after).not.toBe(before);
}

beforeEach(async () => {
  e = await editWorld();
  ids = [
    await e.send(e.owner, 'general', 'lunch', 'Hello **world** with a "quote", <b>html</b> and "last_edit_timestamp":1'),
    await e.send(e.alice, 'general', 'lunch', 'second'),
    await e.send(e.bob, 'general', 'issue #12', 'tracker topic'),
    await e.send(e.owner, 'other', '', 'empty topic'),
    await e.dm(e.alice, [e.owner, e.bob], 'a group DM'),
    await e.send(e.alice, 'general', 'poll', '/poll Lunch?\nPizza\nSoup'),
    await e.send(e.owner, 'general', 'lunch', '/me waves'),
  ];
  must(await doAddReaction(e.w.ctx, e.w.as(e.alice), { message_id: ids[0]!, emoji_name: 'smile' }));
  must(await doUpdateMessage(e.w.ctx, e.w.as(e.owner), { message_id: ids[6]!, content: '/me waves twice' }));
  // An edit history naming the empty topic, which allow_empty_topic_name shows differently.
  must(await doUpdateMessage(e.w.ctx, e.w.as(e.owner), { message_id: ids[3]!, topic: 'named', propagate_mode: 'change_one' }));
});

const OPTIONS: Params[] = [false, true].flatMap((apply_markdown) =>
  [false, true].flatMap((client_gravatar) => [false, true].map((allow_empty_topic_name) => ({ apply_markdown, client_gravatar, allow_empty_topic_name }))),
);

describe('GET /messages with kept rows, users and channels', () => {
  it('answers byte for byte as an uncached read and as formatMessage does, for every viewer and every combination of options, in turns', async () => {
    // Every combination in turn, twice: a cache of formatted records would hold several variants.
    for (let round = 0; round < 2; round++) {
      for (const user of [e.owner, e.alice, e.bob, e.guest]) for (const params of OPTIONS) await checkedPage(user, params);
    }
  });

  it('answers a search (highlights) and a page of listed IDs as an uncached read', async () => {
    const search = { narrow: JSON.stringify([{ operator: 'search', operand: 'lunch' }]) };
    for (const user of [e.owner, e.alice, e.bob, e.guest]) await checkedPage(user, search);
    await checkedPage(e.owner, { message_ids: JSON.stringify(ids), anchor: undefined, num_before: undefined, num_after: undefined });
    // Rows of listed IDs are read for their page only: the window's page still answers as it must.
    await checkedPage(e.owner);
  });

  it('shows an edit of content or topic, a move, a reaction added and removed, a submessage and a deletion', async () => {
    await expectSeen(() => doUpdateMessage(e.w.ctx, e.w.as(e.owner), { message_id: ids[0]!, content: 'edited' }).then(must));
    await expectSeen(() => doUpdateMessage(e.w.ctx, e.w.as(e.owner), { message_id: ids[1]!, topic: 'dinner', propagate_mode: 'change_one' }).then(must));
    await expectSeen(() => doUpdateMessage(e.w.ctx, e.w.as(e.owner), { message_id: ids[2]!, stream_id: e.other }).then(must));
    await expectSeen(() => doAddReaction(e.w.ctx, e.w.as(e.bob), { message_id: ids[1]!, emoji_name: 'tada' }).then(must));
    await expectSeen(() => doRemoveReaction(e.w.ctx, e.w.as(e.alice), { message_id: ids[0]!, emoji_name: 'smile' }).then(must));
    const vote = JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 });
    await expectSeen(() => doSendSubmessage(e.w.ctx, e.w.as(e.bob), { message_id: ids[5]!, msg_type: 'widget', content: vote }).then(must));
    await expectSeen(() => doDeleteMessage(e.w.ctx, e.w.as(e.owner), { message_id: ids[3]! }).then(must));
  });

  it("shows a sender's and a direct participant's new name, avatar and email visibility, for every option", async () => {
    await expectSeen(() => doUpdateSettings(e.w.ctx, e.w.as(e.alice), { full_name: 'Alice Renamed' }).then(must));
    // Bob only takes part in the direct conversation (and sent one channel message).
    await expectSeen(() => doUpdateSettings(e.w.ctx, e.w.as(e.bob), { full_name: 'Bob Renamed' }).then(must), () => e.alice);
    await expectSeen(() => doUploadAvatar(e.w.ctx, e.w.as(e.alice), { file: imageFile(png(8, 8)) }).then(must));
    await expectSeen(() => doUploadAvatar(e.w.ctx, e.w.as(e.bob), { file: imageFile(png(8, 8)) }).then(must), () => e.owner, { client_gravatar: false });
    await expectSeen(() => doUpdateSettings(e.w.ctx, e.w.as(e.alice), { email_address_visibility: 3 }).then(must), () => e.bob);
    // From "everyone" (the default): a dummy address, and an avatar URL the client no longer computes itself.
    await expectSeen(() => doUpdateSettings(e.w.ctx, e.w.as(e.bob), { email_address_visibility: 3 }).then(must), () => e.alice, { client_gravatar: true });
    await expectSeen(() => doUpdateSettings(e.w.ctx, e.w.as(e.bob), { email_address_visibility: 1 }).then(must), () => e.alice, { client_gravatar: false });
  });

  it("shows a channel's new name, a new linkifier and the realm's edit history setting", async () => {
    await expectSeen(() => doUpdateStream(e.w.ctx, e.w.as(e.owner), { stream_id: e.general, new_name: 'renamed' }).then(must));
    await expectSeen(() => doAddLinkifier(e.w.ctx, e.w.as(e.owner), { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example.com/{id}' }).then(must));
    await expectSeen(() => doUpdateRealm(e.w.ctx, e.w.as(e.owner), { message_edit_history_visibility_policy: 'moves' }).then(must));
    await expectSeen(() => doUpdateRealm(e.w.ctx, e.w.as(e.owner), { message_edit_history_visibility_policy: 'none' }).then(must));
  });

  it("shows the viewer's flags", async () => {
    await expectSeen(() => doUpdateMessageFlags(e.w.ctx, e.w.as(e.owner), { messages: [ids[1]!], op: 'add', flag: 'starred' }).then(must));
    await expectSeen(() => doUpdateMessageFlags(e.w.ctx, e.w.as(e.owner), { messages: [ids[1]!], op: 'add', flag: 'read' }).then(must));
  });

  it("shows the realm's address and subdomain as the caller's realm has them", async () => {
    // Dummy addresses name the realm's host.
    must(await doUpdateSettings(e.w.ctx, e.w.as(e.alice), { email_address_visibility: 3 }));
    const realm = await storedRealm();
    const before = await checkedPage(e.owner, { client_gravatar: false }, realm);
    expect(await checkedPage(e.owner, { client_gravatar: false }, { ...realm, url: 'https://chat.example.org' })).not.toBe(before);
    expect(await checkedPage(e.owner, { client_gravatar: false }, { ...realm, subdomain: 'elsewhere' })).not.toBe(before);
    expect(await checkedPage(e.owner, { client_gravatar: false }, realm)).toBe(before);
  });

  it('shows changes made through another handle on the same database (another process)', async () => {
    const other = uncached(e.w.ctx);
    await expectSeen(() => doUpdateMessage(other, e.w.as(e.owner), { message_id: ids[0]!, content: 'edited elsewhere' }).then(must));
    await expectSeen(() => doAddReaction(other, e.w.as(e.bob), { message_id: ids[0]!, emoji_name: 'tada' }).then(must));
    await expectSeen(() => doUpdateSettings(other, e.w.as(e.alice), { full_name: 'Alice Elsewhere' }).then(must));
    await expectSeen(() => doUpdateStream(other, e.w.as(e.owner), { stream_id: e.general, new_name: 'renamed elsewhere' }).then(must));
    await expectSeen(() => doAddLinkifier(other, e.w.as(e.owner), { pattern: 'lunch', url_template: 'https://food.example.com/' }).then(must));
  });
});
