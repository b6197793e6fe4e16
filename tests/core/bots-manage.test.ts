/** GET /bots, PATCH /bots/{id}, DELETE /bots/{id} and key regeneration: answers, access and refusals. */
import { authenticateApiKey, doDeactivateBot, doReactivateUser, doRegenerateBotApiKey, doUpdateBot, getBots } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { botWorld, setRealmSettings } from './bot-helpers.js';
import { expectBadRequest, expectError, reload, secondRealm, setUser } from './fixtures.js';

describe('GET /bots', () => {
  it("lists the requester's own active bots, oldest first, with their keys; administrators too get only their own", async () => {
    const { w, member, admin, createBot } = await botWorld();
    const first = await createBot(member, { full_name: 'First', short_name: 'first', default_sending_stream: 'general' });
    const second = await createBot(member, { full_name: 'Second', short_name: 'second', default_all_public_streams: true });
    const gone = await createBot(member, { full_name: 'Gone', short_name: 'gone' });
    must(await doDeactivateBot(w.ctx, w.as(member), { bot_id: gone.id }));
    const { bots } = must(await getBots(w.ctx, w.as(member), {}));
    expect(bots.map((b) => b.username)).toEqual(['mel-bot@example.com', 'first-bot@chat.example.com', 'second-bot@chat.example.com']);
    expect(bots[1]).toEqual({
      username: 'first-bot@chat.example.com',
      full_name: 'First',
      api_key: first.apiKey,
      avatar_url: expect.any(String),
      default_sending_stream: 'general',
      default_events_register_stream: null,
      default_all_public_streams: false,
    });
    expect(bots[2]).toMatchObject({ full_name: 'Second', api_key: second.apiKey, default_all_public_streams: true });
    expect(must(await getBots(w.ctx, w.as(admin), {})).bots).toEqual([]);
  });

  it('refuses guests and bots', async () => {
    const { w, guest, bot } = await botWorld();
    expectBadRequest(await getBots(w.ctx, w.as(guest), {}), 'Not allowed for guest users');
    expectBadRequest(await getBots(w.ctx, w.as(bot), {}), 'This endpoint does not accept bot requests.');
  });
});

describe('PATCH /bots/{bot_id}', () => {
  it('answers the bot as changed, with the parameters it was given', async () => {
    const { w, member, createBot } = await botWorld();
    const bot = await createBot(member, { short_name: 'out', bot_type: 3, payload_url: JSON.stringify('http://127.0.0.1:1/a') });
    const answer = must(
      await doUpdateBot(w.ctx, w.as(member), {
        bot_id: bot.id,
        full_name: 'Better Name',
        service_payload_url: JSON.stringify('https://example.com/hook'),
        default_events_register_stream: 'general',
      }),
    );
    expect(answer).toEqual({
      full_name: 'Better Name',
      avatar_url: expect.any(String),
      service_interface: 1,
      service_payload_url: 'https://example.com/hook',
      config_data: null,
      default_sending_stream: null,
      default_events_register_stream: 'general',
      default_all_public_streams: false,
      bot_owner: 'mel@example.com',
    });
    const [profile] = await w.ctx.storage.read((tx) => tx.bots.profiles(w.realm.id, [bot.id]));
    expect(profile?.service).toMatchObject({ baseUrl: 'https://example.com/hook', interface: 1 });
  });

  it('config_data merges into the stored configuration', async () => {
    const { w, member, createBot } = await botWorld();
    const bot = await createBot(member, { short_name: 'in', bot_type: 2, config_data: { a: '1', b: '2' } });
    must(await doUpdateBot(w.ctx, w.as(member), { bot_id: bot.id, config_data: { b: 'two', c: '3' } }));
    const [profile] = await w.ctx.storage.read((tx) => tx.bots.profiles(w.realm.id, [bot.id]));
    expect(profile?.configData).toEqual({ a: '1', b: 'two', c: '3' });
    expectBadRequest(await doUpdateBot(w.ctx, w.as(member), { bot_id: bot.id, config_data: { d: 'x'.repeat(10_000) } }), 'Maximum storage limit exceeded.');
  });

  it('only the owner or an administrator; unknown, human, system and other realms\' IDs are "No such bot"', async () => {
    const { w, member, other, admin, bot } = await botWorld();
    const elsewhere = await secondRealm(w.ctx);
    const notifier = (await w.ctx.storage.read((tx) => tx.users.list(w.realm.id))).find((u) => u.isSystemBot);
    const patch = (actor: typeof member, id: number) => doUpdateBot(w.ctx, w.as(actor), { bot_id: id, full_name: 'Changed' });
    expectBadRequest(await patch(other, bot.id), 'Insufficient permission');
    for (const id of [999_999, member.id, elsewhere.owner.id, ...(notifier ? [notifier.id] : [])]) {
      expectBadRequest(await patch(member, id), 'No such bot');
    }
    expect(must(await patch(admin, bot.id))).toMatchObject({ full_name: 'Changed' });
    expectBadRequest(await doUpdateBot.fromTransport(w.ctx, w.as(member), { bot_id: 'abc' }), 'bot_id is not an integer');
  });

  it('a bot that may create users needs an owner to manage it', async () => {
    const { w, admin, bot } = await botWorld();
    await setUser(w.ctx, bot, { canCreateUsers: true });
    expectError(await doUpdateBot(w.ctx, w.as(admin), { bot_id: bot.id, full_name: 'Nope' }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    expect(must(await doUpdateBot(w.ctx, w.as(w.owner), { bot_id: bot.id, full_name: 'Fine' }))).toMatchObject({ full_name: 'Fine' });
  });

  it('role changes need an administrator, and an owner for the owner role', async () => {
    const { w, member, admin, bot } = await botWorld();
    const role = (actor: typeof member, value: number) => doUpdateBot(w.ctx, w.as(actor), { bot_id: bot.id, role: value });
    expectError(await role(member, 300), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    expectError(await role(admin, 100), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    expectBadRequest(await role(admin, 250), 'Invalid role');
    must(await role(admin, 200));
    expect((await reload(w.ctx, bot)).role).toBe(200);
    // Setting the role it has is no change, even for someone who could not make it.
    must(await role(member, 200));
  });

  it('owner changes: the new owner must be an active person of the realm', async () => {
    const { w, member, other, bot } = await botWorld();
    const elsewhere = await secondRealm(w.ctx);
    const owner = (id: number) => doUpdateBot(w.ctx, w.as(member), { bot_id: bot.id, bot_owner_id: id });
    expectBadRequest(await owner(999_999), 'Failed to change owner, no such user');
    expectBadRequest(await owner(elsewhere.owner.id), 'Failed to change owner, no such user');
    expectBadRequest(await owner(bot.id), "Failed to change owner, bots can't own other bots");
    await setUser(w.ctx, other, { isActive: false });
    expectBadRequest(await owner(other.id), 'Failed to change owner, user is deactivated');
    expect((await reload(w.ctx, bot)).botOwnerId).toBe(member.id);
  });

  it('names, emails, channels, services: the reference errors', async () => {
    const { w, member, other, createBot } = await botWorld();
    const bot = await createBot(member, { full_name: 'Mine', short_name: 'mine' });
    await createBot(member, { full_name: 'Taken', short_name: 'taken' });
    const patch = (params: Record<string, unknown>) => doUpdateBot(w.ctx, w.as(member), { bot_id: bot.id, ...params });
    expectBadRequest(await patch({ full_name: 'Taken' }), 'Name is already in use.');
    expectBadRequest(await patch({ full_name: 'x'.repeat(101) }), 'Name too long!');
    expectBadRequest(await patch({ short_name: 'taken' }), 'Username already in use');
    expectBadRequest(await patch({ short_name: 'no good' }), 'Bad name or username');
    expectBadRequest(await patch({ default_sending_stream: 'nowhere' }), "Invalid channel name 'nowhere'");
    expectBadRequest(await patch({ service_payload_url: JSON.stringify('https://example.com') }), 'This bot has no outgoing webhook service');
    expectBadRequest(await patch({ service_payload_url: JSON.stringify('https://example.com'), service_interface: '9' }), 'Invalid interface type');
    expectBadRequest(await patch({ service_payload_url: JSON.stringify('javascript:alert(1)') }), 'service_payload_url is not a URL');
    expectBadRequest(await patch({ default_all_public_streams: 'yes' }), 'default_all_public_streams is not valid JSON');
    // Keeping its own name and email is fine.
    must(await patch({ full_name: 'Mine', short_name: 'mine' }));
    // Other's view of a private channel is its own: it cannot name secret.
    const theirs = await createBot(other, { full_name: 'Theirs', short_name: 'theirs' });
    expectBadRequest(await doUpdateBot(w.ctx, w.as(other), { bot_id: theirs.id, default_sending_stream: 'secret' }), "Invalid channel name 'secret'");
  });
});

describe('DELETE /bots/{bot_id} and POST /bots/{bot_id}/api_key/regenerate', () => {
  it('deactivation stops the bot from authenticating; an administrator may reactivate it', async () => {
    const { w, member, admin, createBot } = await botWorld();
    const bot = await createBot(member, { short_name: 'sleepy' });
    expect(must(await doDeactivateBot(w.ctx, w.as(member), { bot_id: bot.id }))).toEqual({});
    expect((await reload(w.ctx, bot)).isActive).toBe(false);
    expect((await authenticateApiKey(w.ctx, w.realm, bot.deliveryEmail, bot.apiKey)).isErr()).toBe(true);
    // Again: still deactivated, still fine.
    expect(must(await doDeactivateBot(w.ctx, w.as(member), { bot_id: bot.id }))).toEqual({});
    must(await doReactivateUser(w.ctx, w.as(admin), { user_id: bot.id }));
    expect((await reload(w.ctx, bot)).isActive).toBe(true);
  });

  it('reactivating a bot checks the type permission and that its name is free', async () => {
    const { w, member, admin, createBot } = await botWorld();
    const bot = await createBot(member, { full_name: 'Twin', short_name: 'twin' });
    must(await doDeactivateBot(w.ctx, w.as(member), { bot_id: bot.id }));
    await createBot(member, { full_name: 'Twin', short_name: 'twin2' });
    expectBadRequest(
      await doReactivateUser(w.ctx, w.as(admin), { user_id: bot.id }),
      'There is already an active bot named "Twin" in this organization. To reactivate this bot, you must rename or deactivate the other one first.',
    );
    await setRealmSettings(w, { can_create_bots_group: 'role:owners', can_create_write_only_bots_group: 'role:owners' });
    expectBadRequest(await doReactivateUser(w.ctx, w.as(admin), { user_id: bot.id }), 'Insufficient permission');
  });

  it('regeneration answers a new key; the old one stops working', async () => {
    const { w, member, other, createBot } = await botWorld();
    const bot = await createBot(member, { short_name: 'keyed' });
    const { api_key } = must(await doRegenerateBotApiKey(w.ctx, w.as(member), { bot_id: bot.id }));
    expect(api_key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(api_key).not.toBe(bot.apiKey);
    expect((await authenticateApiKey(w.ctx, w.realm, bot.deliveryEmail, bot.apiKey)).isErr()).toBe(true);
    expect((await authenticateApiKey(w.ctx, w.realm, bot.deliveryEmail, api_key)).isOk()).toBe(true);
    expectBadRequest(await doRegenerateBotApiKey(w.ctx, w.as(other), { bot_id: bot.id }), 'Insufficient permission');
    expectBadRequest(await doDeactivateBot(w.ctx, w.as(other), { bot_id: bot.id }), 'Insufficient permission');
    expectBadRequest(await doDeactivateBot(w.ctx, w.as(member), { bot_id: member.id }), 'No such bot');
    expectBadRequest(await doRegenerateBotApiKey.fromTransport(w.ctx, w.as(member), { bot_id: '-1' }), 'bot_id is not an integer');
  });
});
