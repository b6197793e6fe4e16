/** POST /bots: the created bot, its answer, and every refusal (the reference's add_bot_backend). */
import { authenticateApiKey, doCreateBot, doRegister } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { botWorld, setRealmSettings } from './bot-helpers.js';
import { expectBadRequest, expectError, snapshot } from './fixtures.js';

describe('POST /bots: creating', () => {
  it('a generic bot: <short_name>-bot@<realm host>, owned by its creator, answered with its key and defaults', async () => {
    const { w, member } = await botWorld();
    const answer = must(await doCreateBot(w.ctx, w.as(member), { full_name: '  Helper Bot ', short_name: ' helper ' }));
    expect(answer).toEqual({
      user_id: expect.any(Number),
      api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
      avatar_url: expect.stringContaining('https://secure.gravatar.com/avatar/'),
      default_sending_stream: null,
      default_events_register_stream: null,
      default_all_public_streams: false,
    });
    const bot = (await snapshot(w.ctx, w.realm)).find((u) => u.id === answer.user_id)!;
    expect(bot).toMatchObject({
      deliveryEmail: 'helper-bot@chat.example.com',
      fullName: 'Helper Bot',
      isBot: true,
      botType: 1,
      botOwnerId: member.id,
      role: 400,
      passwordHash: null,
      apiKey: answer.api_key,
      isActive: true,
    });
    // The answered key works at once.
    const me = await authenticateApiKey(w.ctx, w.realm, 'helper-bot@chat.example.com', answer.api_key);
    expect(me.isOk()).toBe(true);
  });

  it('an outgoing webhook keeps its URL, interface and a fresh token; default channels are stored by name', async () => {
    const { w, member } = await botWorld();
    const answer = must(
      await doCreateBot(w.ctx, w.as(member), {
        full_name: 'Echo',
        short_name: 'echo',
        bot_type: 3,
        payload_url: JSON.stringify('https://hooks.example.com/echo'),
        interface_type: 2,
        default_sending_stream: 'secret',
        default_events_register_stream: 'general',
        default_all_public_streams: true,
      }),
    );
    expect(answer).toMatchObject({ default_sending_stream: 'secret', default_events_register_stream: 'general', default_all_public_streams: true });
    const state = must(await doRegister(w.ctx, w.as(member), { fetch_event_types: ["realm_bot"] })) as { realm_bots: { user_id: number }[] };
    expect(state.realm_bots.filter((b) => b.user_id === answer.user_id)).toEqual([
      {
        user_id: answer.user_id,
        default_sending_stream: 'secret',
        default_events_register_stream: 'general',
        default_all_public_streams: true,
        services: [{ base_url: 'https://hooks.example.com/echo', interface: 2, token: expect.stringMatching(/^[A-Za-z0-9]{32}$/) }],
      },
    ]);
  });

  it('an incoming webhook keeps config_data; typed values are accepted as in-process values too', async () => {
    const { w, member, createBot } = await botWorld();
    const bot = await createBot(member, { short_name: 'hook', bot_type: 2, config_data: { secret: 'x' } });
    const [profile] = await w.ctx.storage.read((tx) => tx.bots.profiles(w.realm.id, [bot.id]));
    expect(profile).toMatchObject({ service: null, configData: { secret: 'x' } });
  });

  it('can_create_write_only_bots_group lets a user create incoming webhooks only', async () => {
    const { w, member } = await botWorld();
    await setRealmSettings(w, { can_create_bots_group: 'role:administrators', can_create_write_only_bots_group: 'role:members' });
    expectBadRequest(await doCreateBot(w.ctx, w.as(member), { full_name: 'Gen', short_name: 'gen' }), 'Insufficient permission');
    expectBadRequest(await doCreateBot(w.ctx, w.as(member), { full_name: 'Out', short_name: 'out', bot_type: 3 }), 'Insufficient permission');
    expect(must(await doCreateBot(w.ctx, w.as(member), { full_name: 'In', short_name: 'in', bot_type: 2 })).user_id).toEqual(expect.any(Number));
    await setRealmSettings(w, { can_create_bots_group: 'role:administrators', can_create_write_only_bots_group: 'role:administrators' });
    expectBadRequest(await doCreateBot(w.ctx, w.as(member), { full_name: 'In2', short_name: 'in2', bot_type: 2 }), 'Insufficient permission');
  });
});

describe('POST /bots: refusals change nothing', () => {
  it('gives the reference errors for bad names, types, URLs and channels', async () => {
    const { w, member, other } = await botWorld();
    const before = (await snapshot(w.ctx, w.realm)).length;
    const create = (params: Record<string, unknown>) => doCreateBot(w.ctx, w.as(member), { full_name: 'Fine Name', short_name: 'fine', ...params });
    expectBadRequest(await create({ short_name: '   ' }), 'Bad name or username');
    expectBadRequest(await create({ short_name: 'two words' }), 'Bad name or username');
    expectBadRequest(await create({ short_name: 'a'.repeat(260) }), 'Bad name or username');
    expectBadRequest(await create({ full_name: 'x'.repeat(101) }), 'Name too long!');
    expectBadRequest(await create({ full_name: 'Bad *name*' }), 'Invalid characters in name!');
    expectBadRequest(await create({ bot_type: '4', service_name: 'converter' }), 'Embedded bots are not enabled.');
    expectBadRequest(await create({ bot_type: '7' }), 'Invalid bot type');
    expectBadRequest(await create({ bot_type: '3', interface_type: '5' }), 'Invalid interface type');
    expectBadRequest(await create({ bot_type: '3', payload_url: JSON.stringify('not a url') }), 'payload_url is not a URL');
    expectBadRequest(await create({ bot_type: '3', payload_url: JSON.stringify('ftp://example.com/') }), 'payload_url is not a URL');
    expectBadRequest(await create({ bot_type: '3', payload_url: JSON.stringify(`https://example.com/${'a'.repeat(2048)}`) }), 'payload_url is not a URL');
    expectBadRequest(await create({ bot_type: '3', payload_url: 'https://example.com/' }), 'payload_url is not valid JSON');
    expectBadRequest(await create({ bot_type: 'three' }), 'bot_type is not valid JSON');
    expectBadRequest(await create({ bot_type: '"1"' }), 'bot_type is not an integer');
    expectBadRequest(await create({ bot_type: '2', service_name: 'github' }), "Invalid integration 'github'.");
    expectBadRequest(await create({ bot_type: '2', config_data: JSON.stringify({ k: 'v'.repeat(10_000) }) }), 'Maximum storage limit exceeded.');
    expectBadRequest(await create({ config_data: JSON.stringify({ k: 1 }) }), 'config_data["k"] is not a string');
    expectBadRequest(await create({ default_sending_stream: 'nowhere' }), "Invalid channel name 'nowhere'");
    expectBadRequest(await create({ default_events_register_stream: 'nowhere' }), "Invalid channel name 'nowhere'");
    // A private channel the creator cannot read is as unknown as a missing one.
    expectBadRequest(await doCreateBot(w.ctx, w.as(other), { full_name: 'Spy', short_name: 'spy', default_sending_stream: 'secret' }), "Invalid channel name 'secret'");
    expectError(await doCreateBot.fromTransport(w.ctx, w.as(member), { short_name: 'x' }), 'REQUEST_VARIABLE_MISSING', 'Missing \'full_name\' argument', 400, { var_name: 'full_name' });
    expect((await snapshot(w.ctx, w.realm)).length).toBe(before);
  });

  it('refuses a taken email or name, guests and bots', async () => {
    const { w, member, guest, bot, createBot } = await botWorld();
    await createBot(member, { full_name: 'Taken Bot', short_name: 'taken' });
    expectBadRequest(await doCreateBot(w.ctx, w.as(member), { full_name: 'Other Name', short_name: 'TAKEN' }), 'Username already in use');
    expectBadRequest(await doCreateBot(w.ctx, w.as(member), { full_name: 'Taken Bot', short_name: 'fresh' }), 'Name is already in use.');
    // People's names count too.
    expectBadRequest(await doCreateBot(w.ctx, w.as(member), { full_name: 'Mel Member', short_name: 'fresh' }), 'Name is already in use.');
    expectBadRequest(await doCreateBot(w.ctx, w.as(guest), { full_name: 'Guest Bot', short_name: 'gb' }), 'Not allowed for guest users');
    expectBadRequest(await doCreateBot(w.ctx, w.as(bot), { full_name: 'Bot Bot', short_name: 'bb' }), 'This endpoint does not accept bot requests.');
  });
});
