/**
 * readableBy keeps its answer per process under the channel state token and what the channel
 * rules read of the user (ID, role, user-defined groups): a request after no channel write gets
 * the kept answer, and any change to those inputs, by any process, gives a fresh one.
 */
import { ROLE, type User } from '@teamchat/core';
import { ok } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { narrowContextFor, readableBy } from '../../packages/core/src/messages/readable.js';
import { channel, subscribe } from './channel-helpers.js';
import { messageWorld } from './message-helpers.js';

describe('readableBy, kept under the channel state token', () => {
  it('answers again from the kept value only while the channel state and the user as the rules read them are the same', async () => {
    const m = await messageWorld();
    const { w, other } = m;
    // lobby: a public channel other is not subscribed to; secret: private, other not subscribed.
    await subscribe(w, w.owner, ['lobby'], { principals: [w.owner.id] });
    const lobby = await channel(w, 'lobby');
    const readable = (user: User) => w.ctx.storage.read((tx) => readableBy(tx, user));
    const shared = async (user: User) => [...(await readable(user)).scope.sharedHistoryStreamIds].sort((a, b) => a - b);

    const first = await readable(other);
    expect(await readable(other)).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.scope.sharedHistoryStreamIds) && Object.isFrozen(first.visibleStreams)).toBe(true);
    expect(first.scope.sharedHistoryStreamIds).toContain(lobby.id);
    expect(first.scope.sharedHistoryStreamIds).not.toContain(m.secret.id);

    // The same user ID as a guest (a role change): public channels they are not subscribed to are not theirs.
    const asGuest = await readable({ ...other, role: ROLE.guest });
    expect(asGuest.scope.sharedHistoryStreamIds).not.toContain(lobby.id);
    expect(await shared(other)).toEqual([...first.scope.sharedHistoryStreamIds].sort((a, b) => a - b));

    // A user-defined group the private channel lets subscribe (group settings name groups by ID).
    const group = 1000;
    await w.ctx.storage.transaction(async (tx) => {
      await tx.streams.update(w.realm.id, m.secret.id, { groupSettings: { ...m.secret.groupSettings, can_subscribe_group: group } });
      return ok(undefined);
    });
    const withoutGroup = await readable(other);
    expect(withoutGroup).not.toBe(first);
    expect(withoutGroup.visibleStreams.map((s) => s.id)).not.toContain(m.secret.id);
    const inGroup = await readable({ ...other, userGroupIds: new Set([group]) } as User);
    expect(inGroup.visibleStreams.map((s) => s.id)).toContain(m.secret.id);
    expect((await readable(other)).visibleStreams.map((s) => s.id)).not.toContain(m.secret.id);

    // A subscription write (the channel state token changes): the new subscription counts at once.
    await subscribe(w, m.admin, ['secret'], { principals: [other.id] });
    const subscribed = await readable(other);
    expect(subscribed.visibleStreams.map((s) => s.id)).toContain(m.secret.id);
    expect(subscribed.subscribedStreamIds.has(m.secret.id)).toBe(true);

    // narrowContextFor's public channels: those of the user's shared history.
    const context = await w.ctx.storage.read(async (tx) => narrowContextFor(tx, w.realm, other, await readableBy(tx, other)));
    expect([...context.publicStreamIds].sort((a, b) => a - b)).toEqual([m.general.id, lobby.id].sort((a, b) => a - b));
    const guestContext = await w.ctx.storage.read(async (tx) => {
      const guest = { ...other, role: ROLE.guest };
      return narrowContextFor(tx, w.realm, guest, await readableBy(tx, guest));
    });
    expect(guestContext.publicStreamIds).toEqual([m.general.id]);
  });
});
