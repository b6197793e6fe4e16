/** POST /users/me/status: what it stores, the user_status register section, its events and its errors. */
import { doDeactivateRealmEmoji, doRegister, doUpdateOwnStatus, type User, updateRealmAsOperator } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { type ChannelWorld, channelWorld, queued, recipientsOf, register } from './channel-helpers.js';
import { expectBadRequest, reload, setUser, T0 } from './fixtures.js';
import { addEmoji } from './reaction-helpers.js';

const NOW = Math.floor(T0 / 1000);
const setStatus = (c: ChannelWorld, user: User, input: Record<string, unknown>) => doUpdateOwnStatus(c.w.ctx, c.w.as(user), input);
const statuses = async (c: ChannelWorld, viewer: User) => (await register(c.w, viewer, { fetch_event_types: '["user_status"]' })).user_status;
const storedRow = (c: ChannelWorld, user: User) => c.w.ctx.storage.read((tx) => tx.userStatuses.get(c.w.realm.id, user.id));
const activeIds = async (c: ChannelWorld) =>
  (await c.w.ctx.storage.read((tx) => tx.users.list(c.w.realm.id))).filter((u) => u.isActive).map((u) => u.id);

describe('POST /users/me/status', () => {
  it('sets only the fields sent; sends user_status to every active user; register lists it keyed by ID', async () => {
    const c = await channelWorld();
    const queue = await register(c.w, c.other, { event_types: '["user_status"]' });
    expect(must(await setStatus(c, c.member, { status_text: 'on vacation' }))).toEqual({});
    expect(await storedRow(c, c.member)).toEqual({
      userId: c.member.id, statusText: 'on vacation', emojiName: '', emojiCode: '', reactionType: 'unicode_emoji', timestamp: NOW,
    });
    must(await setStatus(c, c.member, { emoji_name: 'car' }));
    const published = c.drain();
    expect(recipientsOf(published, 'user_status')).toEqual([await activeIds(c), await activeIds(c)]);
    expect((await queued(c.w, c.other, queue.queue_id)).map(({ id: _id, ...e }) => e)).toEqual([
      { type: 'user_status', user_id: c.member.id, status_text: 'on vacation' },
      { type: 'user_status', user_id: c.member.id, emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' },
    ]);
    expect(await statuses(c, c.other)).toEqual({
      [String(c.member.id)]: { status_text: 'on vacation', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' },
    });
  });

  it('clears text and emoji with empty values; a cleared status leaves register; deactivated users leave it too', async () => {
    const c = await channelWorld();
    must(await setStatus(c, c.member, { status_text: 'busy', emoji_name: 'car' }));
    must(await setStatus(c, c.other, { status_text: 'lunch' }));
    c.drain();
    must(await setStatus(c, c.member, { status_text: '', emoji_name: '' }));
    expect(c.drain().map((p) => p.event)).toEqual([
      { type: 'user_status', user_id: c.member.id, status_text: '', emoji_name: '', emoji_code: '', reaction_type: 'unicode_emoji' },
    ]);
    expect(await statuses(c, c.admin)).toEqual({ [String(c.other.id)]: { status_text: 'lunch' } });
    await setUser(c.w.ctx, c.other, { isActive: false });
    expect(await statuses(c, c.admin)).toEqual({});
  });

  it('strips the text and counts its characters: 60 are fine, 61 are refused', async () => {
    const c = await channelWorld();
    const sixty = 'é'.repeat(60);
    must(await setStatus(c, c.member, { status_text: `  ${sixty}\n` }));
    expect((await storedRow(c, c.member))!.statusText).toBe(sixty);
    expectBadRequest(await setStatus(c, c.member, { status_text: `${sixty}x` }), 'status_text is too long (limit: 60 characters)');
    expect((await storedRow(c, c.member))!.statusText).toBe(sixty);
  });

  it('takes `away` as the inverse of presence_enabled: user_settings first, then user_status; register shows away', async () => {
    const c = await channelWorld();
    const own = await register(c.w, c.member, { event_types: '["user_settings", "user_status"]' });
    must(await setStatus(c, c.member, { away: 'true' }));
    expect((await reload(c.w.ctx, c.member)).settings).toMatchObject({ presence_enabled: false });
    expect((await queued(c.w, c.member, own.queue_id)).map(({ id: _id, ...e }) => e)).toEqual([
      { type: 'user_settings', op: 'update', property: 'presence_enabled', value: false },
      { type: 'user_status', user_id: c.member.id, away: true },
    ]);
    // `away` alone stores an (empty) status row, which is what register lists.
    expect(await statuses(c, c.other)).toEqual({ [String(c.member.id)]: { away: true } });
    must(await setStatus(c, c.member, { away: 'true', status_text: 'gone' }));
    expect(c.drain().map((p) => p.event.type)).toEqual(['user_settings', 'user_status', 'user_status']);
    must(await setStatus(c, c.member, { away: 'false' }));
    expect((await reload(c.w.ctx, c.member)).settings).toEqual({});
    expect(await statuses(c, c.other)).toEqual({ [String(c.member.id)]: { status_text: 'gone' } });
  });

  it('resolves and checks the emoji as reactions do: unicode, custom and extra emoji, by name or with code and type', async () => {
    const c = await channelWorld();
    const id = await addEmoji(c.w, c.w.owner, 'green_tick');
    must(await setStatus(c, c.member, { emoji_name: 'green_tick' }));
    expect(await storedRow(c, c.member)).toMatchObject({ emojiName: 'green_tick', emojiCode: String(id), reactionType: 'realm_emoji' });
    must(await setStatus(c, c.member, { emoji_name: 'zulip' }));
    expect(await storedRow(c, c.member)).toMatchObject({ emojiName: 'zulip', emojiCode: 'zulip', reactionType: 'service_extra_emoji' });
    // An alias of the code's emoji is fine.
    must(await setStatus(c, c.member, { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' }));
    expect(await storedRow(c, c.member)).toMatchObject({ emojiName: 'thumbs_up', emojiCode: '1f44d' });
    must(await doDeactivateRealmEmoji(c.w.ctx, c.w.as(c.w.owner), { emoji_name: 'green_tick' }));
    expectBadRequest(
      await setStatus(c, c.member, { emoji_name: 'green_tick', emoji_code: String(id), reaction_type: 'realm_emoji' }),
      'This custom emoji has been deactivated.',
    );
  });

  it("gives the reference's errors, in its order, and writes or sends nothing", async () => {
    const c = await channelWorld();
    must(await setStatus(c, c.member, { status_text: 'kept' }));
    c.drain();
    const refused: Array<[Record<string, unknown>, string]> = [
      [{}, 'Client did not pass any new values.'],
      // A code or type alone is not a new value.
      [{ emoji_code: '1f4bb', reaction_type: 'unicode_emoji' }, 'Client did not pass any new values.'],
      [{ status_text: 'In a meeting', emoji_code: '1f4bb' }, 'Client must pass emoji_name if they pass either emoji_code or reaction_type.'],
      [{ status_text: 'x', emoji_code: '1f4bb', emoji_name: 'invalid' }, "Emoji 'invalid' does not exist"],
      [{ status_text: 'x', emoji_code: '1f4bb', emoji_name: 'car' }, 'Invalid emoji name.'],
      [{ status_text: 'x', emoji_code: '1f4bb', emoji_name: 'car', reaction_type: 'realm_emoji' }, 'Invalid custom emoji.'],
      [{ emoji_code: 'zzz', emoji_name: 'car', reaction_type: 'unicode_emoji' }, 'Invalid emoji code.'],
      [{ emoji_code: '1f697', emoji_name: 'car', reaction_type: 'zulip_extra_emoji' }, 'Invalid emoji type.'],
      [{ away: 'maybe' }, 'away is not valid JSON'],
      [{ away: '"yes"' }, 'away is not a boolean'],
      [{ status_text: ['a', 'b'] }, 'status_text is not a string'],
    ];
    for (const [input, msg] of refused) expectBadRequest(await setStatus(c, c.member, input), msg);
    expect(await storedRow(c, c.member)).toMatchObject({ statusText: 'kept', emojiName: '' });
    expect((await reload(c.w.ctx, c.member)).settings).toEqual({});
    expect(c.drain()).toEqual([]);
  });

  it('refuses bots, as a human-only endpoint', async () => {
    const c = await channelWorld();
    expectBadRequest(await setStatus(c, c.bot, { status_text: 'beep' }), 'This endpoint does not accept bot requests.');
    expect(await storedRow(c, c.bot)).toBeUndefined();
  });

  it('gives spectators an empty user_status', async () => {
    const c = await channelWorld();
    must(await setStatus(c, c.member, { status_text: 'here' }));
    must(await updateRealmAsOperator(c.w.ctx, c.w.realm, { webPublicAccessEnabled: true }));
    const realm = { ...c.w.realm, webPublicAccessEnabled: true };
    const spectator = must(await doRegister(c.w.ctx, { realm, user: null }, { fetch_event_types: ["user_status"] }));
    expect(spectator.user_status).toEqual({});
  });
});
