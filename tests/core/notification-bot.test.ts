/** The Notification Bot: a per-realm system bot, listed as a cross-realm bot, sending through the normal send path. */
import {
  authenticateApiKey,
  doCreateUserGroup,
  doRegister,
  doSubscribe,
  doUpdateUser,
  ensureNotificationBots,
  getEvents,
  getMessages,
  getUser,
  getUsers,
  NOTIFICATION_BOT_EMAIL,
  notificationBot,
  sendNotificationBotMessage,
  sendNotificationBotMessageNow,
  type User,
} from '@teamchat/core/internal';
import { expect, it } from 'vitest';
import { makeWorld, must, type World } from '../helpers/core.js';
import { expectBadRequest, expectError, secondRealm } from './fixtures.js';

const COMMIT = { isOk: () => true, isErr: () => false, value: undefined } as never;
const ROLLBACK = { isOk: () => false, isErr: () => true, error: 'rolled back' } as never;

async function botOf(w: World): Promise<User> {
  let bot: User | undefined;
  await w.ctx.storage.transaction(async (tx) => {
    bot = await notificationBot(w.ctx, tx, w.realm);
    return COMMIT;
  });
  return bot!;
}

const drain = async (w: World, user: User, queueId: string) =>
  (must(await getEvents(w.ctx, w.as(user), { queue_id: queueId, dont_block: true })) as { events: Array<Record<string, any>> }).events;

const queueOf = async (w: World, user: User) =>
  (must(await doRegister(w.ctx, w.as(user), { event_types: ["message"], apply_markdown: true })) as { queue_id: string }).queue_id;

const history = async (w: World, user: User) =>
  (must(await getMessages(w.ctx, w.as(user), { anchor: 'newest', num_before: 20, num_after: 0 })) as { messages: Array<Record<string, any>> }).messages;

it('is created once per realm, on first need, as a system bot nobody can log in as', async () => {
  const w = await makeWorld({ config: { timers: false } });
  const bot = await botOf(w);
  expect(bot).toMatchObject({ fullName: 'Notification Bot', deliveryEmail: NOTIFICATION_BOT_EMAIL, isBot: true, botType: 1, botOwnerId: null, isSystemBot: true, passwordHash: null, isActive: true });
  expect((await botOf(w)).id).toBe(bot.id);
  expectError(await authenticateApiKey(w.ctx, w.realm, NOTIFICATION_BOT_EMAIL, bot.apiKey), 'UNAUTHORIZED', 'Invalid API key', 401);

  const other = await secondRealm(w.ctx);
  await ensureNotificationBots(w.ctx);
  const otherBot = await w.ctx.storage.read((tx) => tx.users.byDeliveryEmail(other.realm.id, NOTIFICATION_BOT_EMAIL));
  expect(otherBot?.isSystemBot).toBe(true);
  expect(otherBot?.id).not.toBe(bot.id);
  // The first realm still has exactly one.
  expect((await w.ctx.storage.read((tx) => tx.users.list(w.realm.id))).filter((u) => u.isSystemBot)).toHaveLength(1);
});

it('is listed in cross_realm_bots, not among the realm users, GET /users or realm_bots; GET /users/{id} shows it', async () => {
  const w = await makeWorld({ config: { timers: false } });
  const bot = await botOf(w);
  const state = must(await doRegister(w.ctx, w.as(w.owner), { fetch_event_types: ["realm_user","realm_bot"] }));
  expect(state.cross_realm_bots).toEqual([
    expect.objectContaining({ user_id: bot.id, email: NOTIFICATION_BOT_EMAIL, full_name: 'Notification Bot', is_bot: true, bot_type: 1, bot_owner_id: null, is_system_bot: true, is_active: true, role: 400 }),
  ]);
  expect(state.realm_users?.map((u) => u.user_id)).toEqual([w.owner.id]);
  expect(state.realm_non_active_users).toEqual([]);
  expect(state.realm_bots).toEqual([]);

  const members = must(await getUsers(w.ctx, w.as(w.owner), {}));
  expect(members.members.map((u) => u.user_id)).toEqual([w.owner.id]);
  expectBadRequest(await getUsers(w.ctx, w.as(w.owner), { user_ids: [bot.id] }), `Invalid user ID: ${bot.id}`);
  const one = must(await getUser(w.ctx, w.as(w.owner), { user_id: String(bot.id) }));
  expect(one.user).toMatchObject({ user_id: bot.id, is_system_bot: true, bot_owner_id: null });
});

it("is not one of the realm's users to change, subscribe or group", async () => {
  const w = await makeWorld({ config: { timers: false } });
  const bot = await botOf(w);
  expectError(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: bot.id, full_name: 'Evil Bot' }), 'BAD_REQUEST', 'No such user');
  expectError(await doSubscribe(w.ctx, w.as(w.owner), { subscriptions: [{"name":"general"}], principals: [bot.id] }), 'BAD_REQUEST', 'No such user');
  expectBadRequest(await doCreateUserGroup(w.ctx, w.as(w.owner), { name: 'bots', description: '', members: [bot.id] }), `Invalid user ID: ${bot.id}`);
  expect((await w.ctx.storage.read((tx) => tx.users.byId(w.realm.id, bot.id)))?.fullName).toBe('Notification Bot');
});

it('posts to a channel through the normal send path, private channels included, to their subscribers only', async () => {
  const w = await makeWorld({ config: { timers: false } });
  const bob = await w.addUser({ email: 'bob@example.com', fullName: 'Bob' });
  const eve = await w.addUser({ email: 'eve@example.com', fullName: 'Eve' });
  must(await doSubscribe(w.ctx, w.as(w.owner), { subscriptions: [{"name":"secret"}], invite_only: true, principals: [w.owner.id,bob.id] }));
  const [bobQueue, eveQueue] = [await queueOf(w, bob), await queueOf(w, eve)];

  const sent = must(await sendNotificationBotMessageNow(w.ctx, w.realm, { to: { channelId: 1, topic: 'notices' }, content: 'Hello @**Bob**' }));
  const bot = await botOf(w);
  const events = await drain(w, bob, bobQueue);
  expect(events).toEqual([
    expect.objectContaining({
      type: 'message',
      flags: ['mentioned'],
      message: expect.objectContaining({ id: sent.id, sender_id: bot.id, sender_full_name: 'Notification Bot', sender_email: NOTIFICATION_BOT_EMAIL, client: 'Internal', stream_id: 1, subject: 'notices' }),
    }),
  ]);
  expect(await drain(w, eve, eveQueue)).toEqual([]);
  expect((await history(w, bob)).map((m) => [m.id, m.sender_id, m.flags])).toEqual([[sent.id, bot.id, ['mentioned']]]);
  expect(await history(w, eve)).toEqual([]);
});

it('sends direct messages to users; deactivated and unknown users are left out', async () => {
  const w = await makeWorld({ config: { timers: false } });
  const bob = await w.addUser({ email: 'bob@example.com', fullName: 'Bob' });
  const bobQueue = await queueOf(w, bob);
  const ownerQueue = await queueOf(w, w.owner);
  must(await sendNotificationBotMessageNow(w.ctx, w.realm, { to: { userIds: [bob.id, 999] }, content: 'Just you' }));
  const bot = await botOf(w);
  const [event] = await drain(w, bob, bobQueue);
  expect(event).toMatchObject({ type: 'message', flags: [], message: { type: 'private', sender_id: bot.id, display_recipient: [expect.objectContaining({ id: bob.id }), expect.objectContaining({ id: bot.id })] } });
  expect(await drain(w, w.owner, ownerQueue)).toEqual([]);
  expectBadRequest(await sendNotificationBotMessageNow(w.ctx, w.realm, { to: { userIds: [999] }, content: 'nobody' }), 'Message must have recipients');
  expectBadRequest(await sendNotificationBotMessageNow(w.ctx, w.realm, { to: { channelId: 42, topic: 't' }, content: 'nowhere' }), 'Invalid channel ID 42');
  expect((await history(w, bob)).map((m) => m.content)).toEqual(['<p>Just you</p>']);
});

it("commits with the caller's transaction, and leaves nothing when it rolls back", async () => {
  const w = await makeWorld({ config: { timers: false } });
  const bob = await w.addUser({ email: 'bob@example.com', fullName: 'Bob' });
  const bobQueue = await queueOf(w, bob);
  await w.ctx.storage.transaction(async (tx) => {
    must(await sendNotificationBotMessage(w.ctx, tx, w.realm, { to: { userIds: [bob.id] }, content: 'never sent' }));
    return ROLLBACK;
  });
  expect(await drain(w, bob, bobQueue)).toEqual([]);
  expect(await history(w, bob)).toEqual([]);
  // The bot created inside the rolled-back transaction is gone too.
  expect(await w.ctx.storage.read((tx) => tx.users.byDeliveryEmail(w.realm.id, NOTIFICATION_BOT_EMAIL))).toBeUndefined();

  await w.ctx.storage.transaction(async (tx) => {
    must(await sendNotificationBotMessage(w.ctx, tx, w.realm, { to: { userIds: [bob.id] }, content: 'sent' }));
    return COMMIT;
  });
  expect((await drain(w, bob, bobQueue)).map((e) => e.message.content)).toEqual(['<p>sent</p>']);
});
