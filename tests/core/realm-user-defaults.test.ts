/** PATCH /realm/user_settings_defaults, the realm_user_settings_defaults section and event, and new users' settings. */
import { doCreateUser, doUpdateRealmUserDefaults, doUpdateSettings } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { eventsOfType } from '../helpers/events.js';
import { channelWorld, ids, queued, recipientsOf, register } from './channel-helpers.js';
import { expectBadRequest, expectError, secondRealm } from './fixtures.js';

const settingsOf = async (c: Awaited<ReturnType<typeof channelWorld>>, userId: number) => {
  const user = await c.w.ctx.storage.read((tx) => tx.users.byId(c.w.realm.id, userId));
  return (await register(c.w, user!, { fetch_event_types: '["user_settings"]', client_capabilities: '{"user_settings_object": true}' })).user_settings;
};

describe('realm user settings defaults', () => {
  it('register shows every personal setting but the time zone, with the server defaults at first', async () => {
    const c = await channelWorld();
    const state = await register(c.w, c.member, { fetch_event_types: '["realm_user_settings_defaults"]' });
    const defaults = state.realm_user_settings_defaults;
    expect(defaults).not.toHaveProperty('timezone');
    expect(defaults).toMatchObject({ enter_sends: false, color_scheme: 1, emojiset: 'google', email_address_visibility: 1, default_language: 'en' });
    const { timezone: _tz, ...userSettings } = await settingsOf(c, c.member.id);
    expect(defaults).toEqual(userSettings);
  });

  it('administrators change the defaults; new users start with them, existing users keep theirs; events reach every active user', async () => {
    const c = await channelWorld();
    const before = await register(c.w, c.member, { event_types: '["realm_user_settings_defaults"]', fetch_event_types: '["realm_user_settings_defaults"]' });
    c.drain();
    must(await doUpdateRealmUserDefaults(c.w.ctx, c.w.as(c.admin), { enter_sends: true, color_scheme: 2, email_address_visibility: 3, emojiset: 'google' }));
    const published = c.drain();
    expect(recipientsOf(published, 'realm_user_settings_defaults')[0]).toEqual(ids(c.w.owner, c.admin, c.moderator, c.member, c.other, c.guest, c.bot));
    const events = (await queued(c.w, c.member, before.queue_id)).map(({ id: _id, ...e }) => e);
    // Only the changed defaults, in the order the settings are listed.
    expect(events).toEqual([
      { type: 'realm_user_settings_defaults', op: 'update', property: 'color_scheme', value: 2 },
      { type: 'realm_user_settings_defaults', op: 'update', property: 'enter_sends', value: true },
      { type: 'realm_user_settings_defaults', op: 'update', property: 'email_address_visibility', value: 3 },
    ]);
    const applied: Record<string, unknown> = { ...before.realm_user_settings_defaults };
    for (const e of eventsOfType(events, 'realm_user_settings_defaults')) applied[e.property] = e.value;
    expect(applied).toEqual((await register(c.w, c.member, { fetch_event_types: '["realm_user_settings_defaults"]' })).realm_user_settings_defaults);

    expect(await settingsOf(c, c.member.id)).toMatchObject({ enter_sends: false, color_scheme: 1 });
    const { user_id } = must(await doCreateUser(c.w.ctx, c.w.as(c.w.owner), { email: 'new@example.com', password: 'long-password-1', full_name: 'New Person' }));
    expect(await settingsOf(c, user_id)).toMatchObject({ enter_sends: true, color_scheme: 2, email_address_visibility: 3 });
    // The new user's own changes start from there; setting a default back is stored as such.
    const created = (await c.w.ctx.storage.read((tx) => tx.users.byId(c.w.realm.id, user_id)))!;
    expect(created.emailAddressVisibility).toBe(3);
    must(await doUpdateSettings(c.w.ctx, c.w.as(created), { enter_sends: false }));
    expect(await settingsOf(c, user_id)).toMatchObject({ enter_sends: false, color_scheme: 2 });

    // Back to a server default: nothing stored, and a request changing nothing sends nothing.
    must(await doUpdateRealmUserDefaults(c.w.ctx, c.w.as(c.w.owner), { enter_sends: false }));
    c.drain();
    must(await doUpdateRealmUserDefaults(c.w.ctx, c.w.as(c.w.owner), { enter_sends: false, color_scheme: 2 }));
    expect(c.drain()).toEqual([]);
    expect((await c.w.ctx.storage.read((tx) => tx.realms.byId(c.w.realm.id)))!.userSettingsDefaults).toEqual({ color_scheme: 2, email_address_visibility: 3 });
  });

  it('refuses non-administrators, bad values and the time zone; another realm is untouched', async () => {
    const c = await channelWorld();
    for (const user of [c.moderator, c.member, c.guest]) {
      expectError(await doUpdateRealmUserDefaults(c.w.ctx, c.w.as(user), { enter_sends: true }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    }
    expectError(await doUpdateRealmUserDefaults(c.w.ctx, c.w.as(null), { enter_sends: true }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    const update = (input: Record<string, unknown>) => doUpdateRealmUserDefaults(c.w.ctx, c.w.as(c.admin), input);
    expectBadRequest(await update({ enter_sends: 'yes' }), 'enter_sends is not valid JSON');
    expectBadRequest(await update({ enter_sends: '1' }), 'enter_sends is not a boolean');
    expectBadRequest(await update({ color_scheme: '9' }), 'Invalid color_scheme: Value error, Not in the list of possible values');
    expectBadRequest(await update({ default_language: 'xx' }), 'Invalid default_language');
    expectBadRequest(await update({ notification_sound: 'nope' }), "Invalid notification sound 'nope'");
    // A bad value anywhere writes nothing.
    expectBadRequest(await update({ enter_sends: 'true', web_font_size_px: '99' }), 'web_font_size_px is too large');
    c.drain();
    // The time zone is not a realm default: not read at all (the adapter reports it as ignored).
    must(await update({ timezone: 'Europe/Paris' }));
    expect(c.drain()).toEqual([]);
    expect((await c.w.ctx.storage.read((tx) => tx.realms.byId(c.w.realm.id)))!.userSettingsDefaults).toEqual({});
    const second = await secondRealm(c.w.ctx);
    must(await doUpdateRealmUserDefaults(c.w.ctx, { realm: second.realm, user: second.owner }, { enter_sends: true }));
    expect((await c.w.ctx.storage.read((tx) => tx.realms.byId(c.w.realm.id)))!.userSettingsDefaults).toEqual({});
  });
});
