/** POST /users/me/subscriptions (SHAPES.md 6.8, 4.15, 4.16; the OpenAPI's subscribe). */
import { doSubscribe, doUpdateSettings, updateRealmAsOperator } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { channel, channelWorld, ids, names, queued, recipientsOf, register, row, setSubscription, subscribe, subscribersOf } from './channel-helpers.js';
import { expectBadRequest, expectError, MODERATORS_CREATE_WEB_PUBLIC, secondRealm, setUser, T0 } from './fixtures.js';

describe('creating channels and joining them', () => {
  it('creates missing channels with the reference’s defaults and subscribes the requester', async () => {
    const { w, member } = await channelWorld();
    const response = must(
      await doSubscribe(w.ctx, w.as(member), { subscriptions: [{ name: '  Denmark ', description: 'A Scandinavian\ncountry' }] }),
    );
    expect(response).toEqual({ subscribed: { [member.id]: ['Denmark'] }, already_subscribed: {} });
    const stream = await channel(w, 'denmark');
    expect(stream).toEqual({
      id: expect.any(Number),
      realmId: w.realm.id,
      name: 'Denmark',
      description: 'A Scandinavian country',
      renderedDescription: '<p>A Scandinavian country</p>',
      dateCreated: Math.floor(T0 / 1000),
      creatorId: member.id,
      inviteOnly: false,
      isWebPublic: false,
      historyPublicToSubscribers: true,
      isArchived: false,
      messageRetentionDays: null,
      firstMessageId: null,
      topicsPolicy: 'inherit',
      isRecentlyActive: true,
      folderId: null,
      defaultPushNotifications: false,
      groupSettings: expect.objectContaining({
        can_administer_channel_group: { direct_members: [member.id], direct_subgroups: [] },
        can_send_message_group: 'role:everyone',
        can_remove_subscribers_group: 'role:administrators',
      }),
    });
    expect(await row(w, member, stream)).toEqual({
      realmId: w.realm.id,
      userId: member.id,
      streamId: stream.id,
      active: true,
      color: '#76ce90',
      isMuted: false,
      pinToTop: false,
      desktopNotifications: null,
      audibleNotifications: null,
      pushNotifications: null,
      emailNotifications: null,
      wildcardMentionsNotify: null,
    });
  });

  it('joins existing channels by name in any case, reports repeats as already_subscribed, and collapses duplicates', async () => {
    const { w, member, other } = await channelWorld();
    await subscribe(w, member, ['Denmark', 'Sweden']);
    expect(await subscribe(w, other, ['DENMARK', 'denmark', 'Norway'])).toEqual({ subscribed: { [other.id]: ['Denmark', 'Norway'] }, already_subscribed: {} });
    expect(await subscribe(w, other, ['Denmark', 'sweden'])).toEqual({
      subscribed: { [other.id]: ['Sweden'] },
      already_subscribed: { [other.id]: ['Denmark'] },
    });
    expect(await subscribersOf(w, await channel(w, 'Denmark'))).toEqual(ids(member, other));
  });

  it('subscribes principals given by ID or by API email, bots included, keyed by user ID', async () => {
    const { w, member, other, bot } = await channelWorld();
    await subscribe(w, other, ['Denmark']);
    expect(await subscribe(w, member, ['Denmark', 'Sweden'], { principals: [other.id, bot.id, other.id] })).toEqual({
      subscribed: { [other.id]: ['Sweden'], [bot.id]: ['Denmark', 'Sweden'] },
      already_subscribed: { [other.id]: ['Denmark'] },
    });
    expect(await subscribe(w, member, ['Norway'], { principals: ['OTTO@example.com', 'mel@example.com'] })).toEqual({
      subscribed: { [other.id]: ['Norway'], [member.id]: ['Norway'] },
      already_subscribed: {},
    });
    // The requester who only names others is not subscribed to what they create.
    expect(await row(w, member, await channel(w, 'Sweden'))).toBeUndefined();
  });

  it('creates private channels with protected history unless asked otherwise; public channels always share history', async () => {
    const { w, member } = await channelWorld();
    await subscribe(w, member, ['secret'], { invite_only: true });
    await subscribe(w, member, ['shared'], { invite_only: true, history_public_to_subscribers: true });
    await subscribe(w, member, ['open'], { history_public_to_subscribers: false });
    expect(await channel(w, 'secret')).toMatchObject({ inviteOnly: true, historyPublicToSubscribers: false });
    expect(await channel(w, 'shared')).toMatchObject({ inviteOnly: true, historyPublicToSubscribers: true });
    expect(await channel(w, 'open')).toMatchObject({ inviteOnly: false, historyPublicToSubscribers: true });
  });

  it('gives new subscriptions the palette’s unused colours, honours a requested colour, and keeps settings across resubscription', async () => {
    const { w, member } = await channelWorld();
    await subscribe(w, member, ['a', 'b']);
    must(await doSubscribe(w.ctx, w.as(member), { subscriptions: [{ name: 'c', color: '#123456' }, { name: 'd' }] }));
    const colors = await Promise.all(['a', 'b', 'c', 'd'].map(async (n) => (await row(w, member, await channel(w, n)))!.color));
    expect(colors).toEqual(['#76ce90', '#fae589', '#123456', '#a6c7e5']);
    const a = await channel(w, 'a');
    await setSubscription(w, member, a, { active: false, isMuted: true, desktopNotifications: true });
    await subscribe(w, member, ['a']);
    expect(await row(w, member, a)).toMatchObject({ active: true, color: '#76ce90', isMuted: true, desktopNotifications: true });
  });

  it('makes new channels default channels for administrators only, and never private ones', async () => {
    const { w, admin, member } = await channelWorld();
    await subscribe(w, admin, ['welcome'], { is_default_stream: true });
    expect(await w.ctx.storage.read((tx) => tx.defaultStreams.list(w.realm.id))).toEqual([(await channel(w, 'welcome')).id]);
    expectBadRequest(await doSubscribe(w.ctx, w.as(member), { subscriptions: [{ name: 'x' }], is_default_stream: true }), 'Insufficient permission');
    expectBadRequest(
      await doSubscribe(w.ctx, w.as(admin), { subscriptions: [{ name: 'y' }], is_default_stream: true, invite_only: true }),
      'A default channel cannot be private.',
    );
    // Joining existing channels needs no creation permission.
    expect(await subscribe(w, member, ['welcome'], { is_default_stream: true })).toEqual({ subscribed: { [member.id]: ['welcome'] }, already_subscribed: {} });
  });

  it('creates web-public channels only where spectators are allowed, for moderators and above', async () => {
    const { w, member, moderator } = await channelWorld();
    expectBadRequest(await doSubscribe(w.ctx, w.as(moderator), { subscriptions: [{ name: 'web' }], is_web_public: true }), 'Web-public channels are not enabled.');
    must(await updateRealmAsOperator(w.ctx, w.realm, { webPublicAccessEnabled: true, settings: MODERATORS_CREATE_WEB_PUBLIC }));
    expectBadRequest(await doSubscribe(w.ctx, w.as(member), { subscriptions: [{ name: 'web' }], is_web_public: true }), 'Insufficient permission');
    expectBadRequest(
      await doSubscribe(w.ctx, w.as(moderator), { subscriptions: [{ name: 'web' }], is_web_public: true, invite_only: true }),
      'Invalid parameters',
    );
    await subscribe(w, moderator, ['web'], { is_web_public: true });
    expect(await channel(w, 'web')).toMatchObject({ isWebPublic: true, inviteOnly: false });
  });
});

describe('who may subscribe', () => {
  it('refuses guests, even to public channels', async () => {
    const { w, member, guest } = await channelWorld();
    await subscribe(w, member, ['Denmark']);
    expectBadRequest(await doSubscribe(w.ctx, w.as(guest), { subscriptions: [{ name: 'Denmark' }] }), 'Not allowed for guest users');
    expectBadRequest(await doSubscribe(w.ctx, w.as(guest), { subscriptions: [{ name: 'new' }] }), 'Not allowed for guest users');
  });

  it('lets members subscribe guests and bots to public channels', async () => {
    const { w, member, guest } = await channelWorld();
    await subscribe(w, member, ['Denmark']);
    expect(await subscribe(w, member, ['Denmark'], { principals: [guest.id] })).toEqual({ subscribed: { [guest.id]: ['Denmark'] }, already_subscribed: {} });
  });

  it('refuses private channels the requester is not in, naming the first; or lists them when errors are not fatal', async () => {
    const { w, member, other, admin } = await channelWorld();
    await subscribe(w, member, ['secret', 'hidden'], { invite_only: true });
    await subscribe(w, member, ['Denmark']);
    const before = await subscribersOf(w, await channel(w, 'Denmark'));
    for (const user of [other, admin]) {
      expectBadRequest(await doSubscribe(w.ctx, w.as(user), { subscriptions: [{ name: 'Denmark' }, { name: 'secret' }, { name: 'hidden' }] }), 'Unable to access channel (secret).');
    }
    expect(await subscribersOf(w, await channel(w, 'Denmark'))).toEqual(before);
    expect(await subscribe(w, other, ['secret', 'Denmark', 'hidden'], { authorization_errors_fatal: false })).toEqual({
      subscribed: { [other.id]: ['Denmark'] },
      already_subscribed: {},
      unauthorized: ['secret', 'hidden'],
    });
    // A subscriber may add others to the private channel.
    expect(await subscribe(w, member, ['secret'], { principals: [other.id], authorization_errors_fatal: false })).toEqual({
      subscribed: { [other.id]: ['secret'] },
      already_subscribed: {},
      unauthorized: [],
    });
  });

  it('refuses unknown, foreign and deactivated principals and writes nothing', async () => {
    const { w, member, other, drain } = await channelWorld();
    const foreign = await secondRealm(w.ctx);
    await setUser(w.ctx, other, { isActive: false });
    drain();
    for (const principals of ['[9999]', `[${foreign.owner.id}]`, '["nobody@example.com"]', `["${foreign.owner.deliveryEmail}"]`]) {
      expectBadRequest(await doSubscribe.fromTransport(w.ctx, w.as(member), { subscriptions: names('fresh'), principals }), 'No such user');
    }
    expectBadRequest(await doSubscribe(w.ctx, w.as(member), { subscriptions: [{ name: 'fresh' }], principals: [other.id] }), 'User is deactivated');
    expect(await w.ctx.storage.read((tx) => tx.streams.list(w.realm.id))).toEqual([]);
    expect(drain()).toEqual([]);
  });

  it('needs a logged-in user', async () => {
    const { w } = await channelWorld();
    expectError(await doSubscribe(w.ctx, w.as(null), { subscriptions: [{ name: 'x' }] }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
  });
});

describe('bad input', () => {
  it('checks names, descriptions, colours and the parameter types with the reference’s texts', async () => {
    const { w, member } = await channelWorld();
    const send = (input: Record<string, unknown>) => doSubscribe.fromTransport(w.ctx, w.as(member), input);
    expectError(await send({}), 'REQUEST_VARIABLE_MISSING', "Missing 'subscriptions' argument", 400, { var_name: 'subscriptions' });
    expectBadRequest(await send({ subscriptions: '[{"name": "a"' }), 'subscriptions is not valid JSON');
    expectBadRequest(await send({ subscriptions: '{"name": "a"}' }), 'subscriptions is not a list');
    expectBadRequest(await send({ subscriptions: '["a"]' }), 'subscriptions[0] is not a dict');
    expectBadRequest(await send({ subscriptions: '[{}]' }), 'subscriptions[0]["name"] field is missing');
    expectBadRequest(await send({ subscriptions: '[{"name": 7}]' }), 'subscriptions[0]["name"] is not a string');
    expectBadRequest(await send({ subscriptions: '[{"name": "a", "colour": "#fff"}]' }), 'Argument "colour" at subscriptions[0]["colour"] is unexpected');
    expectBadRequest(await send({ subscriptions: names('   ') }), "Channel name can't be empty.");
    expectBadRequest(await send({ subscriptions: names('x'.repeat(61)) }), 'Channel name too long (limit: 60 characters).');
    expectBadRequest(await send({ subscriptions: names('ok\u0007bell') }), 'Invalid character in channel name, at position 3.');
    expectBadRequest(
      await send({ subscriptions: JSON.stringify([{ name: 'a', description: 'd'.repeat(1025) }]) }),
      'subscriptions[0]["description"] is too long (limit: 1024 characters)',
    );
    expectBadRequest(await send({ subscriptions: JSON.stringify([{ name: 'a', color: 'red' }]) }), 'add.color is not a valid hex color code');
    expectBadRequest(await send({ subscriptions: names('a'), invite_only: 'yes' }), 'invite_only is not valid JSON');
    expectBadRequest(await send({ subscriptions: names('a'), invite_only: '1' }), 'invite_only is not a boolean');
    expectBadRequest(await send({ subscriptions: names('a'), principals: '[1, "a@b.c"]' }), 'Invalid principals');
    expectBadRequest(await send({ subscriptions: names('a'), principals: '4' }), 'Invalid principals');
    // 60 characters, counted as code points, are fine.
    await subscribe(w, member, ['é'.repeat(60)]);
    expect(await w.ctx.storage.read((tx) => tx.streams.list(w.realm.id))).toHaveLength(1);
  });
});

describe('events', () => {
  it('public channel: stream/create to every active non-guest, subscription/add to the subscribers, peer_add to the others', async () => {
    const { w, admin, moderator, member, other, bot, drain } = await channelWorld();
    const everyoneButGuest = ids(w.owner, admin, moderator, member, other, bot);
    drain();
    await subscribe(w, member, ['Denmark'], { principals: [member.id, other.id] });
    const published = drain();
    expect(published.map((p) => `${p.event.type}/${p.event.op}`)).toEqual(['stream/create', 'subscription/add', 'subscription/add', 'subscription/peer_add']);
    expect(recipientsOf(published, 'stream', 'create')).toEqual([everyoneButGuest]);
    expect(recipientsOf(published, 'subscription', 'add')).toEqual([[member.id], [other.id]]);
    expect(recipientsOf(published, 'subscription', 'peer_add')).toEqual([ids(w.owner, admin, moderator, bot)]);
    const stream = await channel(w, 'Denmark');
    expect(published[3]!.event).toEqual({ type: 'subscription', op: 'peer_add', stream_ids: [stream.id], user_ids: ids(member, other) });
    expect(published[1]!.event.subscriptions).toEqual([
      expect.objectContaining({ stream_id: stream.id, name: 'Denmark', subscribers: ids(member, other), subscriber_count: 2, color: '#76ce90' }),
    ]);
  });

  it('private channel: stream/create only to administrators and the creator; peers are the subscribers and administrators', async () => {
    const { w, admin, member, other, guest, drain } = await channelWorld();
    drain();
    await subscribe(w, member, ['secret'], { invite_only: true });
    let published = drain();
    expect(recipientsOf(published, 'stream', 'create')).toEqual([ids(w.owner, admin, member)]);
    expect(recipientsOf(published, 'subscription', 'peer_add')).toEqual([ids(w.owner, admin)]);
    // A newcomer (guest) first gets the channel, then the subscription.
    await subscribe(w, member, ['secret'], { principals: [other.id, guest.id] });
    published = drain();
    expect(published.map((p) => `${p.event.type}/${p.event.op}`)).toEqual([
      'stream/create',
      'subscription/add',
      'subscription/add',
      'subscription/peer_add',
    ]);
    expect(recipientsOf(published, 'stream', 'create')).toEqual([[other.id, guest.id].sort((a, b) => a - b)]);
    expect(recipientsOf(published, 'subscription', 'peer_add')).toEqual([ids(w.owner, admin, member)]);
  });

  it('a guest joining a public channel receives the channel first; web-public channels are created for everyone', async () => {
    const { w, admin, moderator, member, other, guest, bot, drain } = await channelWorld();
    await subscribe(w, member, ['Denmark']);
    drain();
    await subscribe(w, member, ['Denmark'], { principals: [guest.id] });
    const published = drain();
    expect(published.map((p) => [`${p.event.type}/${p.event.op}`, [...p.userIds]])).toEqual([
      ['stream/create', [guest.id]],
      ['subscription/add', [guest.id]],
      ['subscription/peer_add', ids(w.owner, admin, moderator, member, other, bot)],
    ]);
    must(await updateRealmAsOperator(w.ctx, w.realm, { webPublicAccessEnabled: true, settings: MODERATORS_CREATE_WEB_PUBLIC }));
    await subscribe(w, moderator, ['web'], { is_web_public: true });
    expect(recipientsOf(drain(), 'stream', 'create')).toEqual([ids(w.owner, admin, moderator, member, other, guest, bot)]);
  });

  it('sends nothing for already-subscribed users, and nothing at all before commit or on failure', async () => {
    const { w, member, drain } = await channelWorld();
    await subscribe(w, member, ['Denmark']);
    drain();
    await subscribe(w, member, ['Denmark']);
    expect(drain()).toEqual([]);
    expectBadRequest(await doSubscribe.fromTransport(w.ctx, w.as(member), { subscriptions: names('new', 'other'), principals: '[424242]' }), 'No such user');
    expect(drain()).toEqual([]);
  });

  it('gives inherited notification settings as null to notification_settings_null clients, as the user’s defaults to others', async () => {
    const { w, member } = await channelWorld();
    must(await doUpdateSettings(w.ctx, w.as(member), { enable_stream_desktop_notifications: true }));
    const modern = await register(w, member, { event_types: '["subscription"]', client_capabilities: '{"notification_settings_null": true}' });
    const legacy = await register(w, member, { event_types: '["subscription"]' });
    await subscribe(w, member, ['Denmark']);
    const [nullable] = await queued(w, member, modern.queue_id);
    const [filled] = await queued(w, member, legacy.queue_id);
    expect(nullable!.subscriptions).toEqual([expect.objectContaining({ desktop_notifications: null, wildcard_mentions_notify: null })]);
    expect(filled!.subscriptions).toEqual([
      expect.objectContaining({
        desktop_notifications: true,
        audible_notifications: false,
        push_notifications: false,
        email_notifications: false,
        wildcard_mentions_notify: true,
      }),
    ]);
  });
});
