/**
 * topics_policy: set on channel creation and PATCH /streams/{id} (can_set_topics_policy_group,
 * moderators by default), announced by stream/update, and enforced when sending, editing and
 * moving: `disable_empty_topic` refuses the empty topic, `empty_topic_only` every other topic,
 * `inherit` follows the realm.
 */
import { doRegister, doSendMessage, doSubscribe, doUpdateMessage, doUpdateStream } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { channel, channelWorld, ids, names, recipientsOf, subscribe } from './channel-helpers.js';
import { expectBadRequest } from './fixtures.js';

type W = Awaited<ReturnType<typeof channelWorld>>;
const NO_EMPTY = 'Sending messages to the general chat is not allowed in this channel.';
const ONLY_EMPTY = 'Only the general chat topic is allowed in this channel.';

const send = (c: W, to: string, topic: string) => doSendMessage(c.w.ctx, c.w.as(c.member), { type: 'stream', to, topic, content: 'hi' });
const setPolicy = async (c: W, name: string, policy: string) =>
  must(await doUpdateStream.fromTransport(c.w.ctx, c.w.as(c.admin), { stream_id: String((await channel(c.w, name)).id), topics_policy: policy }));

describe('topics_policy on channel creation', () => {
  it('sets the policy (raw or JSON text) for those allowed; anyone may ask for inherit', async () => {
    const c = await channelWorld();
    await subscribe(c.w, c.moderator, ['A'], { topics_policy: 'empty_topic_only' });
    // JSON text, as the reference accepts it on creation: a transport decoding case.
    must(await doSubscribe.fromTransport(c.w.ctx, c.w.as(c.moderator), { subscriptions: names('B'), topics_policy: '"disable_empty_topic"' }));
    await subscribe(c.w, c.member, ['C'], { topics_policy: 'inherit' });
    expect([(await channel(c.w, 'A')).topicsPolicy, (await channel(c.w, 'B')).topicsPolicy, (await channel(c.w, 'C')).topicsPolicy]).toEqual([
      'empty_topic_only', 'disable_empty_topic', 'inherit',
    ]);
    const created = c.published.find((p) => p.event.type === 'stream' && p.event.op === 'create')!;
    expect((created.event.streams as Array<Record<string, unknown>>)[0]).toMatchObject({ name: 'A', topics_policy: 'empty_topic_only' });
  });

  it('refuses members another policy, and unknown policies, creating nothing', async () => {
    const c = await channelWorld();
    c.drain();
    expectBadRequest(await doSubscribe(c.w.ctx, c.w.as(c.member), { subscriptions: [{ name: 'New' }], topics_policy: 'allow_empty_topic' }), 'Insufficient permission');
    expectBadRequest(await doSubscribe.fromTransport(c.w.ctx, c.w.as(c.moderator), { subscriptions: names('New'), topics_policy: 'sometimes' }), 'Invalid topics_policy');
    expectBadRequest(await doSubscribe.fromTransport(c.w.ctx, c.w.as(c.moderator), { subscriptions: names('New'), topics_policy: 5 }), 'Invalid topics_policy');
    expect(await c.w.ctx.storage.read((tx) => tx.streams.byName(c.w.realm.id, 'New'))).toBeUndefined();
    expect(c.drain()).toEqual([]);
  });
});

describe('topics_policy on PATCH /streams/{stream_id}', () => {
  it('changes it for a moderator administering the channel and for administrators, announced to those who see the channel', async () => {
    const c = await channelWorld();
    await subscribe(c.w, c.moderator, ['Denmark']);
    const denmark = await channel(c.w, 'Denmark');
    c.drain();
    await setPolicy(c, 'Denmark', 'empty_topic_only');
    const published = c.drain();
    expect(published.map((p) => p.event)).toEqual([
      { type: 'stream', op: 'update', stream_id: denmark.id, name: 'Denmark', property: 'topics_policy', value: 'empty_topic_only' },
    ]);
    expect(recipientsOf(published, 'stream', 'update')).toEqual([ids(c.w.owner, c.admin, c.moderator, c.member, c.other, c.bot)]);
    must(await doUpdateStream(c.w.ctx, c.w.as(c.admin), { stream_id: denmark.id, topics_policy: 'inherit' }));
    expect((await channel(c.w, 'Denmark')).topicsPolicy).toBe('inherit');
  });

  it('refuses a channel administrator below the realm’s setting, and unknown values, changing nothing', async () => {
    const c = await channelWorld();
    await subscribe(c.w, c.member, ['Denmark']);
    const denmark = await channel(c.w, 'Denmark');
    c.drain();
    // The member created (administers) the channel but is not in can_set_topics_policy_group.
    expectBadRequest(await doUpdateStream(c.w.ctx, c.w.as(c.member), { stream_id: denmark.id, topics_policy: 'empty_topic_only' }), 'Insufficient permission');
    expectBadRequest(await doUpdateStream.fromTransport(c.w.ctx, c.w.as(c.admin), { stream_id: String(denmark.id), topics_policy: 'never' }), 'Invalid topics_policy');
    expect(await channel(c.w, 'Denmark')).toEqual(denmark);
    expect(c.drain()).toEqual([]);
  });
});

describe('sending, editing and moving under a topics policy', () => {
  it('disable_empty_topic refuses the empty topic (and its display name); empty_topic_only refuses any other', async () => {
    const c = await channelWorld();
    await subscribe(c.w, c.member, ['Strict', 'Room', 'Open']);
    await setPolicy(c, 'Strict', 'disable_empty_topic');
    await setPolicy(c, 'Room', 'empty_topic_only');
    expectBadRequest(await send(c, 'Strict', ''), NO_EMPTY);
    expectBadRequest(await send(c, 'Strict', 'general chat'), NO_EMPTY);
    must(await send(c, 'Strict', 'lunch'));
    expectBadRequest(await send(c, 'Room', 'lunch'), ONLY_EMPTY);
    must(await send(c, 'Room', ''));
    must(await send(c, 'Open', ''));
    must(await send(c, 'Open', 'lunch'));
  });

  it('inherit follows the realm’s topics_policy', async () => {
    const c = await channelWorld();
    await subscribe(c.w, c.member, ['Inherits']);
    must(await send(c, 'Inherits', ''));
    await c.w.ctx.storage.transaction(async (tx) => {
      await tx.realms.update(c.w.realm.id, { settings: { topics_policy: 'disable_empty_topic' } });
      return { isOk: () => true, isErr: () => false, value: undefined } as never;
    });
    expectBadRequest(await send(c, 'Inherits', ''), NO_EMPTY);
    const realm = (await c.w.ctx.storage.read((tx) => tx.realms.byId(c.w.realm.id)))!;
    expect(must(await doRegister(c.w.ctx, { realm, user: c.member }, { fetch_event_types: ["realm"] }))).toMatchObject({
      realm_topics_policy: 'disable_empty_topic',
      realm_mandatory_topics: true,
    });
  });

  it('refuses edits and moves into a topic the destination does not allow', async () => {
    const c = await channelWorld();
    await subscribe(c.w, c.member, ['Strict', 'Room', 'Open']);
    const inOpen = (must(await send(c, 'Open', 'lunch'))).id;
    const emptyInOpen = (must(await send(c, 'Open', ''))).id;
    await setPolicy(c, 'Strict', 'disable_empty_topic');
    await setPolicy(c, 'Room', 'empty_topic_only');
    const edit = (id: number, input: Record<string, unknown>) => doUpdateMessage(c.w.ctx, c.w.as(c.admin), { message_id: id, ...input });
    const strict = await channel(c.w, 'Strict');
    const room = await channel(c.w, 'Room');
    expectBadRequest(await edit(emptyInOpen, { stream_id: String(strict.id) }), NO_EMPTY);
    expectBadRequest(await edit(inOpen, { stream_id: String(strict.id), topic: '' }), NO_EMPTY);
    expectBadRequest(await edit(inOpen, { stream_id: String(room.id) }), ONLY_EMPTY);
    must(await edit(inOpen, { stream_id: String(room.id), topic: '' }));

    const inStrict = (must(await send(c, 'Strict', 'lunch'))).id;
    expectBadRequest(await edit(inStrict, { topic: '' }), NO_EMPTY);
    must(await edit(inStrict, { topic: 'dinner' }));
    // A message left in another topic of an empty_topic_only channel can only go to the empty topic, as in the reference.
    const inRoom = (must(await send(c, 'Open', 'breakfast'))).id;
    await setPolicy(c, 'Open', 'empty_topic_only');
    expectBadRequest(await doUpdateMessage(c.w.ctx, c.w.as(c.member), { message_id: inRoom, content: 'edited' }), ONLY_EMPTY);
    must(await doUpdateMessage(c.w.ctx, c.w.as(c.member), { message_id: inRoom, topic: '' }));
  });
});
