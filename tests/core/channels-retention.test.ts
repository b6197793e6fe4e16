/**
 * message_retention_days on channel creation and PATCH /streams/{id}: owners only, the
 * reference's values ("unlimited" = -1, "realm_default" = null, days ≥ 1) and errors, channel
 * records and stream/update events; the realm's setting in register.
 */
import { doSubscribe, doUpdateStream } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { channel, channelWorld, ids, names, recipientsOf, register, subscribe } from './channel-helpers.js';
import { expectError } from './fixtures.js';

type W = Awaited<ReturnType<typeof channelWorld>>;
const badValue = (value: unknown) => ['REQUEST_VARIABLE_INVALID', `Bad value for 'message_retention_days': ${value}`, 400, { var_name: 'message_retention_days', bad_value: value }] as const;

describe('message_retention_days on channel creation', () => {
  it('lets owners set days, "unlimited" or "realm_default" (quoted or not), shown in the channel object', async () => {
    const c = await channelWorld();
    await subscribe(c.w, c.w.owner, ['Ten'], { message_retention_days: '10' });
    await subscribe(c.w, c.w.owner, ['Forever'], { message_retention_days: '"unlimited"' });
    await subscribe(c.w, c.w.owner, ['Bare'], { message_retention_days: 'unlimited' });
    await subscribe(c.w, c.member, ['Default'], { message_retention_days: '"realm_default"' });
    expect([(await channel(c.w, 'Ten')).messageRetentionDays, (await channel(c.w, 'Forever')).messageRetentionDays]).toEqual([10, -1]);
    expect([(await channel(c.w, 'Bare')).messageRetentionDays, (await channel(c.w, 'Default')).messageRetentionDays]).toEqual([-1, null]);
    const created = c.published.filter((p) => p.event.type === 'stream' && p.event.op === 'create');
    expect(created.map((p) => (p.event.streams as Array<Record<string, unknown>>)[0]!.message_retention_days)).toEqual([10, -1, -1, null]);
  });

  it('refuses anyone but owners a non-default value when creating; joining existing channels ignores it', async () => {
    const c = await channelWorld();
    await subscribe(c.w, c.member, ['Existing']);
    c.drain();
    const create = (user: W['admin'], channelName: string) =>
      doSubscribe(c.w.ctx, c.w.as(user), { subscriptions: [{ name: channelName }], message_retention_days: '30' });
    for (const user of [c.admin, c.member]) expectError(await create(user, 'New'), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    expect(await c.w.ctx.storage.read((tx) => tx.streams.byName(c.w.realm.id, 'New'))).toBeUndefined();
    expect(c.drain()).toEqual([]);
    must(await create(c.admin, 'Existing'));
  });

  it('refuses values below 1 and unknown words, before anything is written', async () => {
    const c = await channelWorld();
    const create = (value: string) => doSubscribe(c.w.ctx, c.w.as(c.w.owner), { subscriptions: [{ name: 'New' }], message_retention_days: value });
    expectError(await create('0'), ...badValue(0));
    expectError(await create('-1'), ...badValue(-1));
    expectError(await create('"forever"'), ...badValue('forever'));
    expectError(await create('true'), 'BAD_REQUEST', 'Invalid message_retention_days');
    expectError(await create('1.5'), 'BAD_REQUEST', 'Invalid message_retention_days');
    expectError(await create('[1'), 'BAD_REQUEST', 'message_retention_days is not valid JSON');
    expect(await c.w.ctx.storage.read((tx) => tx.streams.byName(c.w.realm.id, 'New'))).toBeUndefined();
  });
});

describe('message_retention_days on PATCH /streams/{stream_id}', () => {
  it('lets owners change it, announced to those who may see the channel', async () => {
    const c = await channelWorld();
    await subscribe(c.w, c.member, ['Denmark']);
    const denmark = await channel(c.w, 'Denmark');
    c.drain();
    const patch = (value: string) => doUpdateStream(c.w.ctx, c.w.as(c.w.owner), { stream_id: denmark.id, message_retention_days: value });
    must(await patch('7'));
    must(await patch('"unlimited"'));
    must(await patch('realm_default'));
    const published = c.drain();
    expect(published.map((p) => p.event)).toEqual([7, -1, null].map((value) => ({ type: 'stream', op: 'update', stream_id: denmark.id, name: 'Denmark', property: 'message_retention_days', value })));
    // Public channel: every active user but the guest (who is not subscribed).
    expect(recipientsOf(published, 'stream', 'update')[0]).toEqual(ids(c.w.owner, c.admin, c.moderator, c.member, c.other, c.bot));
    must(await patch('realm_default'));
    expect(c.drain()).toEqual([]);
  });

  it('refuses administrators and the channel’s creator, bad values, and writes nothing', async () => {
    const c = await channelWorld();
    await subscribe(c.w, c.member, ['Denmark']);
    const denmark = await channel(c.w, 'Denmark');
    c.drain();
    const patch = (user: W['admin'], value: string, extra: Record<string, unknown> = {}) =>
      doUpdateStream(c.w.ctx, c.w.as(user), { stream_id: denmark.id, message_retention_days: value, ...extra });
    expectError(await patch(c.admin, '7'), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    expectError(await patch(c.member, '7'), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    expectError(await patch(c.w.owner, '0', { description: 'changed first' }), ...badValue(0));
    expectError(await patch(c.w.owner, '"never"'), ...badValue('never'));
    expect(await channel(c.w, 'Denmark')).toEqual(denmark);
    expect(c.drain()).toEqual([]);
  });

  it('register gives the realm’s retention (forever by default) and its topics policy', async () => {
    const c = await channelWorld();
    expect(await register(c.w, c.member, { fetch_event_types: '["realm"]' })).toMatchObject({
      realm_message_retention_days: -1,
      realm_topics_policy: 'allow_empty_topic',
      realm_mandatory_topics: false,
    });
  });
});
