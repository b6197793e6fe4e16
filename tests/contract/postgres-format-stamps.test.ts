/**
 * Kept message rows across processes: GET /messages in one process keeps the rows of the
 * messages it showed (messages/page-rows.ts) and their senders (page-users.ts); an edit, a
 * reaction, a submessage or a renamed sender from another process on the same database must
 * show on its next page, as the stamps and tokens read in the page's own snapshot say.
 */
import {
  doAddLinkifier,
  doAddReaction,
  doSendMessage,
  doSendSubmessage,
  doSubscribe,
  doUpdateMessage,
  doUpdateRealm,
  doUpdateSettings,
  doUpdateStream,
  getMessages,
  type Ctx,
  type Storage,
  type User,
} from '@teamchat/core';
import { toJson } from '@teamchat/core/internal';
import { createPostgresStorage } from '@teamchat/postgres';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeWorld, must, testContext, type World } from '../helpers/core.js';
import { postgresTestDatabase } from '../helpers/storage.js';

let drivers: Storage[] = [];
let w: World;
/** The second process: its own driver, context and kept rows. */
let other: Ctx;
beforeEach(async () => {
  const url = await postgresTestDatabase();
  drivers = [0, 1].map(() => createPostgresStorage({ url, readConnections: 1 }));
  w = await makeWorld({ storage: drivers[0]!, config: { timers: false } });
  other = testContext({ storage: drivers[1]!, config: { timers: false } });
});
afterEach(async () => {
  await Promise.all(drivers.map((driver) => driver.close()));
});

/** The owner's newest page as the context reads it, as JSON text. */
const page = async (ctx: Ctx, user: User) =>
  JSON.stringify(must(await getMessages.fromTransport(ctx, w.as(user), { anchor: 'newest', num_before: 50, num_after: 0, narrow: '[]' })));
/** The same database through a handle of its own: nothing kept. */
const uncached = (ctx: Ctx): Ctx => ({ ...ctx, storage: { read: (fn) => ctx.storage.read(fn), transaction: (fn) => ctx.storage.transaction(fn), close: async () => undefined } });

it("shows on one process's next page an edit, a reaction, a submessage and a sender's new name made by another", async () => {
  must(await doSubscribe(w.ctx, w.as(w.owner), { subscriptions: [{ name: 'general' }] }));
  const id = must(await doSendMessage(w.ctx, w.as(w.owner), { type: 'stream', to: 'general', topic: 'lunch', content: 'first' })).id;
  const poll = must(await doSendMessage(w.ctx, w.as(w.owner), { type: 'stream', to: 'general', topic: 'lunch', content: '/poll Lunch?\nPizza' })).id;
  const changes = [
    () => doUpdateMessage(w.ctx, w.as(w.owner), { message_id: id, content: 'edited' }),
    () => doAddReaction(w.ctx, w.as(w.owner), { message_id: id, emoji_name: 'smile' }),
    () => doSendSubmessage(w.ctx, w.as(w.owner), { message_id: poll, msg_type: 'widget', content: JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 }) }),
    // The sender, kept under the users' state token.
    () => doUpdateSettings(w.ctx, w.as(w.owner), { full_name: 'Olivia Renamed' }),
  ];
  for (const change of changes) {
    const before = await page(other, w.owner);
    expect(await page(other, w.owner)).toBe(before);
    must(await change());
    const after = await page(other, w.owner);
    expect(after).not.toBe(before);
    expect(after).toBe(await page(uncached(other), w.owner));
    expect(after).toBe(await page(w.ctx, w.owner));
  }
});

it("shows on one process's next page, byte for byte as served (toJson), a channel's new name, a linkifier, the realm's edit history setting and a sender's email visibility changed by another, under either options", async () => {
  must(await doSubscribe(w.ctx, w.as(w.owner), { subscriptions: [{ name: 'general' }] }));
  const id = must(await doSendMessage(w.ctx, w.as(w.owner), { type: 'stream', to: 'general', topic: 'issue #7', content: 'first' })).id;
  must(await doUpdateMessage(w.ctx, w.as(w.owner), { message_id: id, content: 'edited once' }));
  const general = await w.ctx.storage.read(async (tx) => (await tx.streams.byName(w.realm.id, 'general'))!.id);
  /** The page as served (toJson) and as its objects say (JSON.stringify), with the realm as stored now. */
  const served = async (ctx: Ctx, params: Record<string, unknown>) => {
    const realm = await ctx.storage.read(async (tx) => (await tx.realms.byId(w.realm.id))!);
    const read = () => getMessages.fromTransport(ctx, { realm, user: w.owner }, { anchor: 'newest', num_before: 50, num_after: 0, narrow: '[]', ...params });
    const text = toJson(must(await read()));
    expect(JSON.stringify(must(await read()))).toBe(text);
    return text;
  };
  const variants = [{}, { apply_markdown: false, client_gravatar: false, allow_empty_topic_name: true }];
  const changes = [
    () => doUpdateStream(w.ctx, w.as(w.owner), { stream_id: general, new_name: 'renamed' }),
    () => doAddLinkifier(w.ctx, w.as(w.owner), { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example.com/{id}' }),
    () => doUpdateRealm(w.ctx, w.as(w.owner), { message_edit_history_visibility_policy: 'none' }),
    () => doUpdateSettings(w.ctx, w.as(w.owner), { email_address_visibility: 3 }),
  ];
  for (const change of changes) {
    const before = [];
    for (const params of variants) {
      before.push(await served(other, params));
      expect(await served(other, params)).toBe(before.at(-1));
    }
    must(await change());
    for (const [i, params] of variants.entries()) {
      const after = await served(other, params);
      expect(after).not.toBe(before[i]);
      expect(after).toBe(await served(uncached(other), params));
    }
  }
});
