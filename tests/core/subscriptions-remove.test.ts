/**
 * DELETE /users/me/subscriptions (SHAPES.md 6.9) and POST /users/me/subscriptions/properties
 * (SHAPES.md 4.15): responses, errors, permissions and the events each sends.
 */
import { doUnsubscribe, doUpdateSubscriptionProperties } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { channel, channelWorld, ids, recipientsOf, row, subscribe, subscribersOf } from './channel-helpers.js';
import { expectBadRequest, expectError, secondRealm } from './fixtures.js';

const list = (...items: string[]) => JSON.stringify(items);

describe('DELETE /users/me/subscriptions', () => {
  it('unsubscribes the requester, keeping the row inactive, and reports what was not subscribed', async () => {
    const { w, member } = await channelWorld();
    await subscribe(w, member, ['Denmark']);
    await subscribe(w, w.owner, ['Sweden']);
    expect(must(await doUnsubscribe(w.ctx, w.as(member), { subscriptions: [' denmark ', 'Sweden'] }))).toEqual({
      removed: ['Denmark'],
      not_removed: ['Sweden'],
    });
    const denmark = await channel(w, 'Denmark');
    expect(await row(w, member, denmark)).toMatchObject({ active: false, color: '#76ce90' });
    expect(await subscribersOf(w, denmark)).toEqual([]);
    expect(must(await doUnsubscribe(w.ctx, w.as(member), { subscriptions: ['Denmark'] }))).toEqual({ removed: [], not_removed: ['Denmark'] });
  });

  it('answers STREAM_DOES_NOT_EXIST for unknown channels and for private channels the requester cannot see', async () => {
    const { w, member, other, admin } = await channelWorld();
    await subscribe(w, member, ['secret'], { invite_only: true });
    expectError(await doUnsubscribe(w.ctx, w.as(other), { subscriptions: ['nope'] }), 'STREAM_DOES_NOT_EXIST', "Channel 'nope' does not exist", 400, {
      stream: 'nope',
    });
    expectError(await doUnsubscribe(w.ctx, w.as(other), { subscriptions: ['secret'] }), 'STREAM_DOES_NOT_EXIST', "Channel 'secret' does not exist", 400, {
      stream: 'secret',
    });
    // Administrators can see every channel.
    expect(must(await doUnsubscribe(w.ctx, w.as(admin), { subscriptions: ['secret'] }))).toEqual({ removed: [], not_removed: ['secret'] });
    const foreign = await secondRealm(w.ctx);
    const { id: _id, ...template } = await channel(w, 'secret');
    await w.ctx.storage.transaction(async (tx) => {
      await tx.streams.insert({ ...template, realmId: foreign.realm.id, name: 'elsewhere', groupSettings: {} });
      return { isOk: () => true, isErr: () => false, value: undefined } as never;
    });
    expectError(await doUnsubscribe(w.ctx, w.as(admin), { subscriptions: ['elsewhere'] }), 'STREAM_DOES_NOT_EXIST', "Channel 'elsewhere' does not exist", 400, {
      stream: 'elsewhere',
    });
  });

  it('lets users remove themselves and their own bots; removing others needs an administrator', async () => {
    const { w, admin, member, other, bot } = await channelWorld();
    await subscribe(w, w.owner, ['Denmark'], { principals: [member.id, other.id, bot.id] });
    expect(must(await doUnsubscribe(w.ctx, w.as(member), { subscriptions: ['Denmark'], principals: [bot.id] }))).toEqual({
      removed: ['Denmark'],
      not_removed: [],
    });
    expectBadRequest(await doUnsubscribe(w.ctx, w.as(member), { subscriptions: ['Denmark'], principals: [other.id] }), 'Insufficient permission');
    expectBadRequest(await doUnsubscribe(w.ctx, w.as(member), { subscriptions: ['Denmark'], principals: [member.id, other.id] }), 'Insufficient permission');
    expect(await subscribersOf(w, await channel(w, 'Denmark'))).toEqual(ids(member, other));
    expect(must(await doUnsubscribe.fromTransport(w.ctx, w.as(admin), { subscriptions: list('Denmark'), principals: '["otto@example.com", "mel@example.com"]' }))).toEqual({
      removed: ['Denmark', 'Denmark'],
      not_removed: [],
    });
  });

  it('lets a channel’s administrators (by default its creator) remove others', async () => {
    const { w, member, other } = await channelWorld();
    await subscribe(w, member, ['Denmark'], { principals: [member.id, other.id] });
    expect(must(await doUnsubscribe(w.ctx, w.as(member), { subscriptions: ['Denmark'], principals: [other.id] }))).toEqual({
      removed: ['Denmark'],
      not_removed: [],
    });
  });

  it('lets administrators remove others from private channels they are not in', async () => {
    const { w, admin, member, other } = await channelWorld();
    await subscribe(w, member, ['secret'], { invite_only: true, principals: [member.id, other.id] });
    expect(must(await doUnsubscribe(w.ctx, w.as(admin), { subscriptions: ['secret'], principals: [other.id] }))).toEqual({
      removed: ['secret'],
      not_removed: [],
    });
  });

  it('refuses bad input with the reference’s texts', async () => {
    const { w, member } = await channelWorld();
    const send = (input: Record<string, unknown>) => doUnsubscribe.fromTransport(w.ctx, w.as(member), input);
    expectError(await send({}), 'REQUEST_VARIABLE_MISSING', "Missing 'subscriptions' argument", 400, { var_name: 'subscriptions' });
    expectBadRequest(await send({ subscriptions: 'Denmark' }), 'subscriptions is not valid JSON');
    expectBadRequest(await send({ subscriptions: '"Denmark"' }), 'subscriptions is not a list');
    expectBadRequest(await send({ subscriptions: '[7]' }), 'subscriptions[0] is not a string');
    expectBadRequest(await send({ subscriptions: '[]', principals: '[99999]' }), 'No such user');
    expectError(await doUnsubscribe(w.ctx, w.as(null), { subscriptions: [] }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
  });

  it('sends subscription/remove to the removed users and peer_remove to those who may see the subscribers', async () => {
    const { w, admin, moderator, member, other, bot, drain } = await channelWorld();
    await subscribe(w, member, ['Denmark'], { principals: [member.id, other.id] });
    drain();
    must(await doUnsubscribe(w.ctx, w.as(admin), { subscriptions: ['Denmark'], principals: [member.id, other.id] }));
    const published = drain();
    const stream = await channel(w, 'Denmark');
    expect(published.map((p) => [p.event, [...p.userIds].sort((a, b) => a - b)])).toEqual([
      [{ type: 'subscription', op: 'remove', subscriptions: [{ name: 'Denmark', stream_id: stream.id }] }, [member.id]],
      [{ type: 'subscription', op: 'remove', subscriptions: [{ name: 'Denmark', stream_id: stream.id }] }, [other.id]],
      [{ type: 'subscription', op: 'peer_remove', stream_ids: [stream.id], user_ids: ids(member, other) }, ids(w.owner, admin, moderator, bot)],
      // Users removed together hear of each other, so their subscriber lists stay right.
      [{ type: 'subscription', op: 'peer_remove', stream_ids: [stream.id], user_ids: [other.id] }, [member.id]],
      [{ type: 'subscription', op: 'peer_remove', stream_ids: [stream.id], user_ids: [member.id] }, [other.id]],
    ]);
  });

  it('sends stream/delete to users who can no longer see the channel: non-administrators leaving a private one, guests leaving a public one', async () => {
    const { w, admin, member, other, guest, drain } = await channelWorld();
    await subscribe(w, member, ['secret'], { invite_only: true, principals: [member.id, other.id, admin.id] });
    await subscribe(w, member, ['Denmark'], { principals: [guest.id] });
    const secret = await channel(w, 'secret');
    drain();
    must(await doUnsubscribe(w.ctx, w.as(other), { subscriptions: ['secret'] }));
    must(await doUnsubscribe(w.ctx, w.as(admin), { subscriptions: ['secret'] }));
    let published = drain();
    expect(recipientsOf(published, 'stream', 'delete')).toEqual([[other.id]]);
    expect(published.find((p) => p.event.op === 'delete')!.event).toEqual({ type: 'stream', op: 'delete', streams: [{ stream_id: secret.id }], stream_ids: [secret.id] });
    // The creator administers the channel, so leaving it does not hide it.
    must(await doUnsubscribe(w.ctx, w.as(member), { subscriptions: ['secret'] }));
    expect(recipientsOf(drain(), 'stream', 'delete')).toEqual([]);
    must(await doUnsubscribe(w.ctx, w.as(guest), { subscriptions: ['Denmark'] }));
    published = drain();
    expect(recipientsOf(published, 'stream', 'delete')).toEqual([[guest.id]]);
  });
});

describe('POST /users/me/subscriptions/properties', () => {
  const data = (...changes: Array<{ stream_id: number; property: string; value: unknown }>) => ({ subscription_data: JSON.stringify(changes) });

  it('sets colour, pin, mute and the notification settings; muting also sends the legacy in_home_view update first', async () => {
    const { w, member, drain } = await channelWorld();
    await subscribe(w, member, ['Denmark']);
    const stream = await channel(w, 'Denmark');
    drain();
    expect(
      must(
        await doUpdateSubscriptionProperties.fromTransport(
          w.ctx,
          w.as(member),
          data(
            { stream_id: stream.id, property: 'color', value: '#f00f00' },
            { stream_id: stream.id, property: 'pin_to_top', value: true },
            { stream_id: stream.id, property: 'is_muted', value: true },
            { stream_id: stream.id, property: 'desktop_notifications', value: true },
            { stream_id: stream.id, property: 'audible_notifications', value: false },
            { stream_id: stream.id, property: 'push_notifications', value: true },
            { stream_id: stream.id, property: 'email_notifications', value: false },
            { stream_id: stream.id, property: 'wildcard_mentions_notify', value: false },
          ),
        ),
      ),
    ).toEqual({});
    expect(await row(w, member, stream)).toMatchObject({
      color: '#f00f00',
      pinToTop: true,
      isMuted: true,
      desktopNotifications: true,
      audibleNotifications: false,
      pushNotifications: true,
      emailNotifications: false,
      wildcardMentionsNotify: false,
    });
    const published = drain();
    expect(published.every((p) => p.userIds.length === 1 && p.userIds[0] === member.id)).toBe(true);
    expect(published.map((p) => [p.event.property, p.event.value])).toEqual([
      ['color', '#f00f00'],
      ['pin_to_top', true],
      ['in_home_view', false],
      ['is_muted', true],
      ['desktop_notifications', true],
      ['audible_notifications', false],
      ['push_notifications', true],
      ['email_notifications', false],
      ['wildcard_mentions_notify', false],
    ]);
    expect(published[0]!.event).toEqual({ type: 'subscription', op: 'update', stream_id: stream.id, property: 'color', value: '#f00f00' });
    must(await doUpdateSubscriptionProperties.fromTransport(w.ctx, w.as(member), data({ stream_id: stream.id, property: 'in_home_view', value: true })));
    expect((await row(w, member, stream))!.isMuted).toBe(false);
    expect(drain().map((p) => [p.event.property, p.event.value])).toEqual([
      ['in_home_view', true],
      ['is_muted', false],
    ]);
  });

  it('checks every change before applying any, and applies all or nothing', async () => {
    const { w, member, other, drain } = await channelWorld();
    await subscribe(w, member, ['Denmark', 'Sweden']);
    await subscribe(w, other, ['Norway']);
    await subscribe(w, other, ['secret'], { invite_only: true });
    const [denmark, norway, secret] = [await channel(w, 'Denmark'), await channel(w, 'Norway'), await channel(w, 'secret')];
    drain();
    const send = (...changes: Parameters<typeof data>) => doUpdateSubscriptionProperties.fromTransport(w.ctx, w.as(member), data(...changes));
    const pin = { stream_id: denmark.id, property: 'pin_to_top', value: true };
    expectBadRequest(await send(pin, { stream_id: denmark.id, property: 'colour', value: '#fff' }), 'Unknown subscription property: colour');
    expectBadRequest(await send(pin, { stream_id: denmark.id, property: 'is_muted', value: 'yes' }), 'is_muted is not a boolean');
    expectBadRequest(await send(pin, { stream_id: denmark.id, property: 'color', value: 'red' }), 'color is not a valid hex color code');
    expectBadRequest(await send(pin, { stream_id: denmark.id, property: 'color', value: true }), 'color is not a string');
    expectBadRequest(await send(pin, { stream_id: norway.id, property: 'pin_to_top', value: true }), `Not subscribed to channel ID ${norway.id}`);
    expectBadRequest(await send(pin, { stream_id: secret.id, property: 'pin_to_top', value: true }), 'Invalid channel ID');
    expectBadRequest(await send(pin, { stream_id: 9999, property: 'pin_to_top', value: true }), 'Invalid channel ID');
    expect((await row(w, member, denmark))!.pinToTop).toBe(false);
    expect(drain()).toEqual([]);
  });

  it('refuses malformed subscription_data with the reference’s texts', async () => {
    const { w, member } = await channelWorld();
    const send = (input: Record<string, unknown>) => doUpdateSubscriptionProperties.fromTransport(w.ctx, w.as(member), input);
    expectError(await send({}), 'REQUEST_VARIABLE_MISSING', "Missing 'subscription_data' argument", 400, { var_name: 'subscription_data' });
    expectBadRequest(await send({ subscription_data: '[' }), 'subscription_data is not valid JSON');
    expectBadRequest(await send({ subscription_data: '{}' }), 'subscription_data is not a list');
    expectBadRequest(await send({ subscription_data: '[{"property": "color", "value": "#fff"}]' }), 'subscription_data[0]["stream_id"] field is missing');
    expectBadRequest(await send({ subscription_data: '[{"stream_id": "1", "property": "color", "value": "#fff"}]' }), 'subscription_data[0]["stream_id"] is not an integer');
    expectBadRequest(await send({ subscription_data: '[{"stream_id": 1, "property": "color", "value": null}]' }), 'Invalid subscription_data[0]["value"]');
    expectBadRequest(
      await send({ subscription_data: '[{"stream_id": 1, "property": "color", "value": "#fff", "extra": 1}]' }),
      'Argument "extra" at subscription_data[0]["extra"] is unexpected',
    );
  });
});
