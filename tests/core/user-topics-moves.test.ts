/** Topic visibility policies follow a topic moved as a whole (the reference's do_update_message). */
import { doUpdateMessage, doUpdateUserTopic, type User } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { editWorld, ofType } from './message-edit-helpers.js';

type E = Awaited<ReturnType<typeof editWorld>>;
const setPolicy = async (e: E, user: User, streamId: number, topic: string, policy: number) =>
  must(await doUpdateUserTopic(e.w.ctx, e.w.as(user), { stream_id: streamId, topic, visibility_policy: policy }));
const move = async (e: E, id: number, input: Record<string, string>) =>
  must(await doUpdateMessage(e.w.ctx, e.w.as(e.owner), { message_id: id, ...input }));
const policies = (e: E, user: User) =>
  e.w.ctx.storage.read(async (tx) => (await tx.userTopics.list(e.w.realm.id, user.id)).map((r) => [r.streamId, r.topic, r.visibilityPolicy]));

describe('user topics on topic moves', () => {
  it('change_all carries each user\'s policy to the new topic, with user_topic events to that user', async () => {
    const e = await editWorld();
    const a = await e.send(e.owner, 'general', 'lunch');
    await e.send(e.alice, 'general', 'lunch');
    await setPolicy(e, e.alice, e.general, 'lunch', 3);
    await setPolicy(e, e.bob, e.general, 'Lunch', 1);
    e.drain();
    await move(e, a, { topic: 'brunch', propagate_mode: 'change_all' });
    expect(await policies(e, e.alice)).toEqual([[e.general, 'brunch', 3]]);
    expect(await policies(e, e.bob)).toEqual([[e.general, 'brunch', 1]]);
    const events = ofType(e.drain(), 'user_topic').map((p) => [p.userIds, p.event.topic_name, p.event.visibility_policy]);
    // The owner follows the topic they started, so their policy moves too.
    expect(events).toEqual([
      [[e.owner.id], 'lunch', 0],
      [[e.owner.id], 'brunch', 3],
      [[e.alice.id], 'lunch', 0],
      [[e.alice.id], 'brunch', 3],
      [[e.bob.id], 'lunch', 0],
      [[e.bob.id], 'brunch', 1],
    ]);
  });

  it('change_later moves policies only when nothing the mover can read stays; change_one of part of a topic does not', async () => {
    const e = await editWorld();
    const first = await e.send(e.owner, 'general', 'lunch');
    const second = await e.send(e.owner, 'general', 'lunch');
    await setPolicy(e, e.alice, e.general, 'lunch', 3);
    await move(e, second, { topic: 'brunch', propagate_mode: 'change_one' });
    expect(await policies(e, e.alice)).toEqual([[e.general, 'lunch', 3]]);
    await move(e, first, { topic: 'dinner', propagate_mode: 'change_later' });
    expect(await policies(e, e.alice)).toEqual([[e.general, 'dinner', 3]]);
  });

  it('merging into a topic with messages keeps the more visible policy', async () => {
    const e = await editWorld();
    const a = await e.send(e.owner, 'general', 'lunch');
    await e.send(e.owner, 'general', 'brunch');
    await setPolicy(e, e.alice, e.general, 'lunch', 1);
    await setPolicy(e, e.alice, e.general, 'brunch', 2);
    await setPolicy(e, e.bob, e.general, 'lunch', 1);
    await setPolicy(e, e.mod, e.general, 'brunch', 1);
    await move(e, a, { topic: 'brunch', propagate_mode: 'change_all' });
    expect(await policies(e, e.alice)).toEqual([[e.general, 'brunch', 2]]);
    // Muted and none merge to none; muted on both sides stays muted.
    expect(await policies(e, e.bob)).toEqual([]);
    expect(await policies(e, e.mod)).toEqual([]);
  });

  it('a channel move drops the policy of users who cannot read the new channel, and moves the others\'', async () => {
    const e = await editWorld();
    const a = await e.send(e.owner, 'general', 'lunch');
    await setPolicy(e, e.alice, e.general, 'lunch', 3);
    await setPolicy(e, e.bob, e.general, 'lunch', 3);
    e.drain();
    await move(e, a, { stream_id: String(e.secret), propagate_mode: 'change_all' });
    expect(await policies(e, e.alice)).toEqual([]);
    expect(await policies(e, e.bob)).toEqual([[e.secret, 'lunch', 3]]);
    const aliceEvents = ofType(e.drain(), 'user_topic').filter((p) => p.userIds.includes(e.alice.id));
    // Alice hears only that her policy in general is gone: nothing of the private channel.
    expect(aliceEvents.map((p) => p.event)).toEqual([{ type: 'user_topic', stream_id: e.general, topic_name: 'lunch', last_updated: expect.any(Number), visibility_policy: 0 }]);
  });

  it('resolving a topic carries its policies', async () => {
    const e = await editWorld();
    const a = await e.send(e.owner, 'general', 'lunch');
    await setPolicy(e, e.alice, e.general, 'lunch', 3);
    await move(e, a, { topic: '✔ lunch', propagate_mode: 'change_all' });
    expect(await policies(e, e.alice)).toEqual([[e.general, '✔ lunch', 3]]);
  });
});
