/** PATCH /settings and the user_settings register section (SHAPES.md 2.9, 4.13, 4.19). */
import {
  type Caller,
  type Ctx,
  doFetchApiKey,
  doRegister,
  doUpdateSettings,
  type User,
} from '@teamchat/core';
import type { LoosePublishedEvent as PublishedEvent, LooseQueuedEvent as QueuedEvent } from '../helpers/events.js';
import { describe, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import { expectBadRequest, reload, secondRealm, setUser, snapshot } from './fixtures.js';

/** Every key of SHAPES.md 2.9, in its order. */
const SHAPES_KEYS = [
  'twenty_four_hour_time', 'web_mark_read_on_scroll_policy', 'web_channel_default_view', 'starred_message_counts',
  'receives_typing_notifications', 'web_suggest_update_timezone', 'fluid_layout_width', 'high_contrast_mode',
  'web_font_size_px', 'web_line_height_percent', 'color_scheme', 'translate_emoticons', 'display_emoji_reaction_users',
  'default_language', 'web_home_view', 'web_escape_navigates_to_home_view', 'left_side_userlist', 'emojiset',
  'demote_inactive_streams', 'user_list_style', 'web_animate_image_previews', 'web_stream_unreads_count_display_policy',
  'hide_ai_features', 'web_left_sidebar_show_channel_folders', 'web_inbox_show_channel_folders',
  'web_left_sidebar_unreads_count_summary', 'timezone', 'enter_sends', 'enable_drafts_synchronization',
  'enable_stream_desktop_notifications', 'enable_stream_email_notifications', 'enable_stream_push_notifications',
  'enable_stream_audible_notifications', 'notification_sound', 'enable_desktop_notifications', 'enable_sounds',
  'enable_followed_topic_desktop_notifications', 'enable_followed_topic_email_notifications',
  'enable_followed_topic_push_notifications', 'enable_followed_topic_audible_notifications',
  'enable_followed_topic_wildcard_mentions_notify', 'email_notifications_batching_period_seconds',
  'enable_offline_email_notifications', 'enable_offline_push_notifications', 'enable_online_push_notifications',
  'enable_digest_emails', 'enable_marketing_emails', 'enable_login_emails', 'message_content_in_email_notifications',
  'pm_content_in_desktop_notifications', 'wildcard_mentions_notify', 'desktop_icon_count_display',
  'realm_name_in_email_notifications_policy', 'automatically_follow_topics_policy',
  'automatically_unmute_topics_in_muted_streams_policy', 'automatically_follow_topics_where_mentioned',
  'resolved_topic_notice_auto_read_policy', 'presence_enabled', 'available_notification_sounds', 'emojiset_choices',
  'send_private_typing_notifications', 'send_stream_typing_notifications', 'send_read_receipts',
  'allow_private_data_export', 'email_address_visibility', 'web_navigate_to_sent_message',
];

async function world() {
  const w = await makeWorld({ config: { timers: false } });
  const admin = await w.addUser({ email: 'admin@example.com', fullName: 'Ada Admin', role: 200 });
  const moderator = await w.addUser({ email: 'mod@example.com', fullName: 'Mo Moderator', role: 300 });
  const member = await w.addUser({ email: 'member@example.com', fullName: 'Mel Member', password: 'mel-password' });
  const guest = await w.addUser({ email: 'guest@example.com', fullName: 'Gus Guest', role: 600 });
  const gone = await w.addUser({ email: 'gone@example.com', fullName: 'Gone Member' });
  await setUser(w.ctx, gone, { isActive: false });
  const activeIds = [w.owner.id, admin.id, moderator.id, member.id, guest.id];
  return { w, admin, moderator, member, guest, gone, activeIds };
}

/** Every event published from now on, with its recipients. */
function recorder(ctx: Ctx): PublishedEvent[] {
  const published: PublishedEvent[] = [];
  ctx.events.subscribe((p) => published.push(p));
  return published;
}

/** The published events as `[recipients, event]` pairs, for exact comparisons. */
const pairs = (published: PublishedEvent[]) => published.map((p) => [[...p.userIds].sort((a, b) => a - b), p.event]);

const settingsEvent = (property: string, value: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'user_settings',
  op: 'update',
  property,
  value,
  ...extra,
});

/** The register snapshot's user_settings for `caller`. */
async function userSettingsOf(ctx: Ctx, caller: Caller, capabilities = '{"user_settings_object": true}') {
  const state = must(
    await doRegister.fromTransport(ctx, caller, { fetch_event_types: '["user_settings"]', client_capabilities: capabilities }),
  );
  return state;
}

async function settingsOf(ctx: Ctx, caller: Caller) {
  const { user_settings } = await userSettingsOf(ctx, caller);
  if (!user_settings) throw new Error('register gave no user_settings');
  return user_settings;
}

describe('user_settings register section', () => {
  it('has every key of SHAPES 2.9 in order, with the reference defaults for a new user', async () => {
    const { w, member } = await world();
    const settings = await settingsOf(w.ctx, w.as(member));
    expect(Object.keys(settings)).toEqual(SHAPES_KEYS);
    expect(settings).toMatchObject({
      twenty_four_hour_time: false,
      web_mark_read_on_scroll_policy: 1,
      web_channel_default_view: 1,
      web_font_size_px: 16,
      web_line_height_percent: 140,
      color_scheme: 1,
      default_language: 'en',
      web_home_view: 'inbox',
      emojiset: 'google',
      user_list_style: 3,
      web_animate_image_previews: 'on_hover',
      web_stream_unreads_count_display_policy: 2,
      timezone: '',
      enter_sends: false,
      notification_sound: 'zulip',
      email_notifications_batching_period_seconds: 120,
      enable_stream_desktop_notifications: false,
      enable_desktop_notifications: true,
      desktop_icon_count_display: 1,
      automatically_follow_topics_policy: 3,
      automatically_unmute_topics_in_muted_streams_policy: 2,
      resolved_topic_notice_auto_read_policy: 'except_followed',
      allow_private_data_export: false,
      email_address_visibility: 1,
      web_navigate_to_sent_message: true,
    });
    expect(settings.available_notification_sounds).toEqual(expect.arrayContaining(['chime', 'ding', 'zulip']));
    const sounds = settings.available_notification_sounds;
    expect(sounds).toEqual([...sounds].sort());
    expect(settings.emojiset_choices).toEqual([
      { key: 'google', text: 'Google' },
      { key: 'twitter', text: 'Twitter' },
      { key: 'text', text: 'Plain text' },
      { key: 'google-blob', text: 'Google blobs' },
    ]);
  });

  it('shows the user’s own values and its time zone and email visibility fields', async () => {
    const { w, member } = await world();
    await setUser(w.ctx, member, { timezone: 'Europe/Paris', emailAddressVisibility: 3, settings: { enter_sends: true } });
    expect(await settingsOf(w.ctx, w.as(member))).toMatchObject({
      timezone: 'Europe/Paris',
      email_address_visibility: 3,
      enter_sends: true,
    });
  });

  it('repeats the pre-FL 89 settings at the top level only without user_settings_object', async () => {
    const { w, member } = await world();
    const modern = await userSettingsOf(w.ctx, w.as(member));
    expect(Object.keys(modern).filter((key) => SHAPES_KEYS.includes(key))).toEqual([]);
    const legacy = await userSettingsOf(w.ctx, w.as(member), '{}');
    expect(legacy).toMatchObject({ enter_sends: false, color_scheme: 1, default_language: 'en', notification_sound: 'zulip' });
    expect(legacy.emojiset_choices).toEqual(legacy.user_settings?.emojiset_choices);
    expect(legacy).not.toHaveProperty('web_font_size_px');
  });

  it('gives a spectator the defaults', async () => {
    const { w } = await world();
    const realm = { ...w.realm, webPublicAccessEnabled: true };
    const settings = await settingsOf(w.ctx, { realm, user: null });
    expect(settings).toEqual(await settingsOf(w.ctx, w.as(await w.addUser({ email: 'fresh@example.com' }))));
  });
});

describe('PATCH /settings: settings', () => {
  it('changes settings given as form text or typed values and answers with an empty body', async () => {
    const { w, member } = await world();
    const result = must(
      await doUpdateSettings(w.ctx, w.as(member), {
        enter_sends: true,
        color_scheme: 2,
        emojiset: 'text',
        web_home_view: 'recent',
        default_language: 'de',
        web_font_size_px: 14,
        twenty_four_hour_time: true,
        email_notifications_batching_period_seconds: 604800,
        notification_sound: 'none',
        resolved_topic_notice_auto_read_policy: 'never',
      }),
    );
    expect(result).toEqual({});
    expect(await settingsOf(w.ctx, w.as(member))).toMatchObject({
      enter_sends: true,
      color_scheme: 2,
      emojiset: 'text',
      web_home_view: 'recent',
      default_language: 'de',
      web_font_size_px: 14,
      twenty_four_hour_time: true,
      email_notifications_batching_period_seconds: 604800,
      notification_sound: 'none',
      resolved_topic_notice_auto_read_policy: 'never',
    });
  });

  it('sends one user_settings event per changed setting, alphabetically, to the user only', async () => {
    const { w, member } = await world();
    const published = recorder(w.ctx);
    must(await doUpdateSettings(w.ctx, w.as(member), { enter_sends: true, color_scheme: 3, default_language: 'de' }));
    expect(pairs(published)).toEqual([
      [[member.id], settingsEvent('color_scheme', 3)],
      [[member.id], settingsEvent('default_language', 'de', { language_name: 'Deutsch' })],
      [[member.id], settingsEvent('enter_sends', true)],
    ]);
    expect(published.map((p) => p.event.type)).not.toContain('update_display_settings');
    expect(published.map((p) => p.event.type)).not.toContain('update_global_notifications');
  });

  it('sends nothing and writes nothing for values equal to the current ones', async () => {
    const { w, member } = await world();
    const published = recorder(w.ctx);
    const before = await reload(w.ctx, member);
    must(
      await doUpdateSettings(w.ctx, w.as(member), {
        enter_sends: false,
        color_scheme: 1,
        timezone: '',
        email_address_visibility: 1,
        full_name: 'Mel Member',
        default_language: 'en',
      }),
    );
    must(await doUpdateSettings(w.ctx, w.as(member), {}));
    expect(published).toEqual([]);
    expect(await reload(w.ctx, member)).toEqual(before);
  });

  it('stores only values that differ from the defaults', async () => {
    const { w, member } = await world();
    must(await doUpdateSettings(w.ctx, w.as(member), { enter_sends: true, emojiset: 'twitter' }));
    expect((await reload(w.ctx, member)).settings).toEqual({ enter_sends: true, emojiset: 'twitter' });
    const published = recorder(w.ctx);
    must(await doUpdateSettings(w.ctx, w.as(member), { enter_sends: false }));
    expect((await reload(w.ctx, member)).settings).toEqual({ emojiset: 'twitter' });
    expect(pairs(published)).toEqual([[[member.id], settingsEvent('enter_sends', false)]]);
  });

  it('keeps each user’s settings apart', async () => {
    const { w, member, admin } = await world();
    must(await doUpdateSettings(w.ctx, w.as(member), { color_scheme: 2 }));
    expect((await settingsOf(w.ctx, w.as(admin))).color_scheme).toBe(1);
    expect((await settingsOf(w.ctx, w.as(member))).color_scheme).toBe(2);
  });

  it('accepts every choice of the enumerated settings', async () => {
    const { w, member } = await world();
    const choices: Record<string, unknown[]> = {
      web_mark_read_on_scroll_policy: [1, 2, 3],
      web_channel_default_view: [1, 2, 3, 4],
      color_scheme: [1, 2, 3],
      demote_inactive_streams: [1, 2, 3],
      user_list_style: [1, 2, 3],
      web_stream_unreads_count_display_policy: [1, 2, 3],
      desktop_icon_count_display: [1, 2, 3, 4],
      realm_name_in_email_notifications_policy: [1, 2, 3],
      automatically_follow_topics_policy: [1, 2, 3, 4],
      automatically_unmute_topics_in_muted_streams_policy: [1, 2, 3, 4],
      email_address_visibility: [1, 2, 3, 4, 5],
      web_font_size_px: [12, 20],
      web_line_height_percent: [122, 158],
      web_home_view: ['recent', 'inbox', 'all_messages'],
      emojiset: ['google', 'google-blob', 'twitter', 'text'],
      web_animate_image_previews: ['always', 'on_hover', 'never'],
      resolved_topic_notice_auto_read_policy: ['always', 'except_followed', 'never'],
      default_language: ['en', 'de', 'pt-br', 'zh-hans'],
      notification_sound: ['ding', 'deep tom', 'none', 'zulip'],
      email_notifications_batching_period_seconds: [1, 604800],
      timezone: ['UTC', 'America/Denver', 'Asia/Kolkata', 'Europe/Kyiv', ''],
    };
    for (const [name, values] of Object.entries(choices)) {
      for (const value of values) {
        must(await doUpdateSettings(w.ctx, w.as(member), { [name]: value }));
        expect(await settingsOf(w.ctx, w.as(member)), `${name}=${value}`).toHaveProperty(name, value);
      }
    }
  });

  it('ignores the read-only lists as parameters', async () => {
    const { w, member } = await world();
    const published = recorder(w.ctx);
    must(await doUpdateSettings.fromTransport(w.ctx, w.as(member), { available_notification_sounds: '[]', emojiset_choices: '[]' }));
    expect(published).toEqual([]);
    expect((await settingsOf(w.ctx, w.as(member))).emojiset_choices).toHaveLength(4);
  });

  it('refuses bots', async () => {
    const { w, member } = await world();
    const bot = await w.addUser({ email: 'bot@example.com', fullName: 'Botty', bot: true, botOwnerId: member.id });
    expectBadRequest(await doUpdateSettings(w.ctx, w.as(bot), { enter_sends: true }), 'This endpoint does not accept bot requests.');
    expect((await reload(w.ctx, bot)).settings).toEqual({});
  });
});

describe('PATCH /settings: validation', () => {
  const NOT_A_CHOICE = (name: string) => `Invalid ${name}: Value error, Not in the list of possible values`;
  const cases: [Record<string, unknown>, string][] = [
    [{ enter_sends: 'True' }, 'enter_sends is not valid JSON'],
    [{ enter_sends: '1' }, 'enter_sends is not a boolean'],
    [{ enter_sends: '"true"' }, 'enter_sends is not a boolean'],
    [{ twenty_four_hour_time: 'null' }, 'twenty_four_hour_time is not a boolean'],
    [{ hide_ai_features: 'yes' }, 'hide_ai_features is not valid JSON'],
    [{ color_scheme: '10' }, NOT_A_CHOICE('color_scheme')],
    [{ color_scheme: '"2"' }, 'color_scheme is not an integer'],
    [{ color_scheme: '2.5' }, 'color_scheme is not an integer'],
    [{ color_scheme: 'dark' }, 'color_scheme is not valid JSON'],
    [{ web_mark_read_on_scroll_policy: '4' }, NOT_A_CHOICE('web_mark_read_on_scroll_policy')],
    [{ web_channel_default_view: '5' }, NOT_A_CHOICE('web_channel_default_view')],
    [{ demote_inactive_streams: '0' }, NOT_A_CHOICE('demote_inactive_streams')],
    [{ user_list_style: '4' }, NOT_A_CHOICE('user_list_style')],
    [{ web_stream_unreads_count_display_policy: '4' }, NOT_A_CHOICE('web_stream_unreads_count_display_policy')],
    [{ desktop_icon_count_display: '5' }, NOT_A_CHOICE('desktop_icon_count_display')],
    [{ realm_name_in_email_notifications_policy: '4' }, NOT_A_CHOICE('realm_name_in_email_notifications_policy')],
    [{ automatically_follow_topics_policy: '5' }, NOT_A_CHOICE('automatically_follow_topics_policy')],
    [
      { automatically_unmute_topics_in_muted_streams_policy: '0' },
      NOT_A_CHOICE('automatically_unmute_topics_in_muted_streams_policy'),
    ],
    [{ email_address_visibility: '6' }, NOT_A_CHOICE('email_address_visibility')],
    [{ web_font_size_px: '11' }, 'web_font_size_px is too small'],
    [{ web_font_size_px: '21' }, 'web_font_size_px is too large'],
    [{ web_font_size_px: 'big' }, 'web_font_size_px is not valid JSON'],
    [{ web_line_height_percent: '121' }, 'web_line_height_percent is too small'],
    [{ web_line_height_percent: '159' }, 'web_line_height_percent is too large'],
    [{ emojiset: 'apple' }, NOT_A_CHOICE('emojiset')],
    [{ emojiset: '"google"' }, NOT_A_CHOICE('emojiset')],
    [{ web_home_view: 'recent_topics' }, NOT_A_CHOICE('web_home_view')],
    [{ web_animate_image_previews: 'sometimes' }, NOT_A_CHOICE('web_animate_image_previews')],
    [{ resolved_topic_notice_auto_read_policy: 'sometimes' }, 'Invalid resolved_topic_notice_auto_read_policy'],
    [{ timezone: 'Mars/Olympus_Mons' }, 'Invalid timezone: Value error, Not a recognized time zone'],
    [{ timezone: 'europe/paris' }, 'Invalid timezone: Value error, Not a recognized time zone'],
    [{ default_language: 'xx' }, 'Invalid default_language'],
    [{ default_language: '"de"' }, 'Invalid default_language'],
    [{ notification_sound: 'bogus' }, "Invalid notification sound 'bogus'"],
    [{ email_notifications_batching_period_seconds: '0' }, 'Invalid email batching period: 0 seconds'],
    [{ email_notifications_batching_period_seconds: '604801' }, 'Invalid email batching period: 604801 seconds'],
    [{ email_notifications_batching_period_seconds: '"60"' }, 'email_notifications_batching_period_seconds is not an integer'],
    [{ enter_sends: 1 }, 'enter_sends is not a boolean'],
    [{ color_scheme: true }, 'color_scheme is not an integer'],
    [{ emojiset: 5 }, 'emojiset is not a string'],
    [{ full_name: 7 }, 'full_name is not a string'],
  ];

  it.each(cases)('%j → %s, with nothing published or stored', async (input, msg) => {
    const { w, member } = await world();
    const published = recorder(w.ctx);
    const before = await snapshot(w.ctx, w.realm);
    expectBadRequest(await doUpdateSettings(w.ctx, w.as(member), input), msg);
    expect(published).toEqual([]);
    expect(await snapshot(w.ctx, w.realm)).toEqual(before);
  });

  it('reports parameter errors in alphabetical order, before the value checks', async () => {
    const { w, member } = await world();
    const first = async (input: Record<string, unknown>) =>
      (await doUpdateSettings(w.ctx, w.as(member), input))._unsafeUnwrapErr().msg;
    expect(await first({ emojiset: 'apple', color_scheme: '10' })).toMatch(/^Invalid color_scheme/);
    expect(await first({ web_home_view: 'x', enter_sends: 'x' })).toBe('enter_sends is not valid JSON');
    // The language, sound and batching checks come after every parameter parsed.
    expect(await first({ default_language: 'xx', emojiset: 'apple' })).toMatch(/^Invalid emojiset/);
    expect(await first({ notification_sound: 'x', default_language: 'xx' })).toBe('Invalid default_language');
    expect(await first({ email_notifications_batching_period_seconds: '0', notification_sound: 'x' })).toBe(
      "Invalid notification sound 'x'",
    );
    // …and before the password, email and name.
    expect(await first({ new_password: 'whatever-new', notification_sound: 'x' })).toBe("Invalid notification sound 'x'");
    expect(await first({ full_name: 'M', new_password: 'whatever-new', old_password: 'wrong' })).toBe('Wrong password!');
  });

  it('applies nothing when a later part of the request fails', async () => {
    const { w, member } = await world();
    const published = recorder(w.ctx);
    const before = await snapshot(w.ctx, w.realm);
    expectBadRequest(await doUpdateSettings(w.ctx, w.as(member), { enter_sends: true, full_name: 'X' }), 'Name too short!');
    expectBadRequest(
      await doUpdateSettings(w.ctx, w.as(member), { enter_sends: true, old_password: 'nope', new_password: 'new-password' }),
      'Wrong password!',
    );
    expectBadRequest(
      await doUpdateSettings(w.ctx, w.as(member), {
        timezone: 'UTC',
        full_name: 'Melanie',
        old_password: 'mel-password',
        new_password: 'new-password',
        email: 'elsewhere@example.com',
      }),
      'Email address changes are disabled in this organization.',
    );
    expect(published).toEqual([]);
    expect(await snapshot(w.ctx, w.realm)).toEqual(before);
  });
});

describe('PATCH /settings: full_name', () => {
  it('renames the user and tells every active user of the realm', async () => {
    const { w, member, gone, activeIds } = await world();
    const other = await secondRealm(w.ctx);
    const published = recorder(w.ctx);
    must(await doUpdateSettings(w.ctx, w.as(member), { full_name: '  Melanie Member ' }));
    expect((await reload(w.ctx, member)).fullName).toBe('Melanie Member');
    expect(pairs(published)).toEqual([
      [activeIds, { type: 'realm_user', op: 'update', person: { user_id: member.id, full_name: 'Melanie Member' } }],
    ]);
    expect(published[0]!.userIds).not.toContain(gone.id);
    expect(published[0]!.userIds).not.toContain(other.owner.id);
  });

  it('sends nothing when the stripped name is unchanged', async () => {
    const { w, member } = await world();
    const published = recorder(w.ctx);
    must(await doUpdateSettings(w.ctx, w.as(member), { full_name: ' Mel Member ' }));
    expect(published).toEqual([]);
  });

  it('applies the name rules', async () => {
    const { w, member } = await world();
    const rename = (full_name: string) => doUpdateSettings(w.ctx, w.as(member), { full_name });
    expectBadRequest(await rename('x'.repeat(101)), 'Name too long!');
    expectBadRequest(await rename('M'), 'Name too short!');
    expectBadRequest(await rename(''), 'Name too short!');
    expectBadRequest(await rename('Mel*'), 'Invalid characters in name!');
    expectBadRequest(await rename('Mel|2'), 'Invalid format!');
    expect((await reload(w.ctx, member)).fullName).toBe('Mel Member');
  });

  it('comes before the settings in the events', async () => {
    const { w, member } = await world();
    const published = recorder(w.ctx);
    must(await doUpdateSettings(w.ctx, w.as(member), { enter_sends: true, full_name: 'Melanie' }));
    expect(published.map((p) => p.event.type)).toEqual(['realm_user', 'user_settings']);
  });
});

describe('PATCH /settings: timezone', () => {
  it('sends user_settings to the user, then realm_user {user_id, email, timezone} to every active user', async () => {
    const { w, member, activeIds } = await world();
    const published = recorder(w.ctx);
    must(await doUpdateSettings(w.ctx, w.as(member), { timezone: 'America/Denver' }));
    expect((await reload(w.ctx, member)).timezone).toBe('America/Denver');
    expect(pairs(published)).toEqual([
      [[member.id], settingsEvent('timezone', 'America/Denver')],
      [
        activeIds,
        {
          type: 'realm_user',
          op: 'update',
          person: { user_id: member.id, email: 'member@example.com', timezone: 'America/Denver' },
        },
      ],
    ]);
  });

  it('carries the API email, not the real one, when the address is hidden', async () => {
    const { w, member } = await world();
    await setUser(w.ctx, member, { emailAddressVisibility: 4 });
    const published = recorder(w.ctx);
    must(await doUpdateSettings(w.ctx, w.as(member), { timezone: 'UTC' }));
    expect(published[1]!.event).toEqual({
      type: 'realm_user',
      op: 'update',
      person: { user_id: member.id, email: `user${member.id}@chat.example.com`, timezone: 'UTC' },
    });
  });

  it('stores the current IANA name of a renamed zone, and can be cleared', async () => {
    const { w, member } = await world();
    const published = recorder(w.ctx);
    must(await doUpdateSettings(w.ctx, w.as(member), { timezone: 'Asia/Calcutta' }));
    expect((await reload(w.ctx, member)).timezone).toBe('Asia/Kolkata');
    expect(published[0]!.event).toEqual(settingsEvent('timezone', 'Asia/Kolkata'));
    must(await doUpdateSettings(w.ctx, w.as(member), { timezone: 'Asia/Kolkata' }));
    expect(published).toHaveLength(2);
    must(await doUpdateSettings(w.ctx, w.as(member), { timezone: '' }));
    expect((await reload(w.ctx, member)).timezone).toBe('');
    expect(published.map((p) => p.event.type)).toEqual(['user_settings', 'realm_user', 'user_settings', 'realm_user']);
  });

  it('comes after every other setting', async () => {
    const { w, member } = await world();
    const published = recorder(w.ctx);
    must(await doUpdateSettings(w.ctx, w.as(member), { web_home_view: 'all_messages', timezone: 'UTC', color_scheme: 2 }));
    expect(published.map((p) => p.event.property ?? p.event.type)).toEqual([
      'color_scheme',
      'web_home_view',
      'timezone',
      'realm_user',
    ]);
  });
});

describe('PATCH /settings: email_address_visibility', () => {
  const person = (p: PublishedEvent) => p.event.person as Record<string, unknown>;
  /** The realm_user updates published with `field` in their person. */
  const personEvents = (published: PublishedEvent[], field: string) =>
    published.filter((p) => p.event.type === 'realm_user' && field in person(p));
  const sorted = (ids: readonly number[]) => [...ids].sort((a, b) => a - b);

  it('hiding the address: null to those who lose it, and the new API email to every active user', async () => {
    const { w, member, activeIds } = await world();
    const published = recorder(w.ctx);
    must(await doUpdateSettings(w.ctx, w.as(member), { email_address_visibility: 4 }));
    expect((await reload(w.ctx, member)).emailAddressVisibility).toBe(4);
    expect(published[0]).toMatchObject({ userIds: [member.id], event: settingsEvent('email_address_visibility', 4) });

    const others = activeIds.filter((id) => id !== member.id);
    const addresses = personEvents(published, 'delivery_email');
    const lost = addresses.filter((p) => person(p).delivery_email === null);
    expect(lost.map((p) => sorted(p.userIds))).toEqual([others]);
    for (const p of addresses.filter((p) => person(p).delivery_email !== null)) {
      for (const id of others) expect(p.userIds).not.toContain(id);
    }
    expect(personEvents(published, 'new_email').map((p) => [sorted(p.userIds), p.event])).toEqual([
      [activeIds, { type: 'realm_user', op: 'update', person: { user_id: member.id, new_email: `user${member.id}@chat.example.com` } }],
    ]);
  });

  it('showing it to everyone again: the address to those who gain it and the real email as the API email', async () => {
    const { w, member, guest, activeIds } = await world();
    await setUser(w.ctx, member, { emailAddressVisibility: 4 });
    const published = recorder(w.ctx);
    must(await doUpdateSettings(w.ctx, w.as(member), { email_address_visibility: 1 }));
    const shown = personEvents(published, 'delivery_email');
    expect(shown.map((p) => p.event.person)).toEqual([{ user_id: member.id, delivery_email: 'member@example.com' }]);
    expect(shown[0]!.userIds).toEqual(expect.arrayContaining(activeIds.filter((id) => id !== member.id)));
    expect(shown[0]!.userIds).toContain(guest.id);
    expect(personEvents(published, 'new_email').map((p) => person(p))).toEqual([
      { user_id: member.id, new_email: 'member@example.com' },
    ]);
  });

  it('between restricted levels: the address to those who gain it, null to those who lose it, no new API email', async () => {
    const { w, member, moderator, guest } = await world();
    const peer = await w.addUser({ email: 'peer@example.com', fullName: 'Pat Peer' });
    await setUser(w.ctx, member, { emailAddressVisibility: 3 });
    const published = recorder(w.ctx);
    must(await doUpdateSettings(w.ctx, w.as(member), { email_address_visibility: 2 }));
    const shown = personEvents(published, 'delivery_email');
    expect(shown.map((p) => p.event.person)).toEqual([{ user_id: member.id, delivery_email: 'member@example.com' }]);
    expect(shown[0]!.userIds).toEqual(expect.arrayContaining([moderator.id, peer.id]));
    expect(shown[0]!.userIds).not.toContain(guest.id);
    expect(personEvents(published, 'new_email')).toEqual([]);

    published.length = 0;
    must(await doUpdateSettings(w.ctx, w.as(member), { email_address_visibility: 5 }));
    const hidden = personEvents(published, 'delivery_email').filter((p) => person(p).delivery_email === null);
    expect(hidden.map((p) => p.userIds)).toEqual([[peer.id]]);
    for (const p of personEvents(published, 'delivery_email')) expect(p.userIds).not.toContain(guest.id);
    expect(personEvents(published, 'new_email')).toEqual([]);
  });
});

describe('PATCH /settings: password', () => {
  it('changes the password: the new one logs in, the old one no longer does', async () => {
    const { w, member } = await world();
    const published = recorder(w.ctx);
    expect(must(await doUpdateSettings(w.ctx, w.as(member), { old_password: 'mel-password', new_password: 'brand-new-secret' }))).toEqual({});
    expect(published).toEqual([]);
    const login = (password: string) => doFetchApiKey(w.ctx, { realm: w.realm, user: null }, { username: 'member@example.com', password });
    expect(must(await login('brand-new-secret'))).toMatchObject({ user_id: member.id, api_key: member.apiKey });
    expect((await login('mel-password')).isErr()).toBe(true);
  });

  it('needs the right old password', async () => {
    const { w, member } = await world();
    const before = await reload(w.ctx, member);
    expectBadRequest(await doUpdateSettings(w.ctx, w.as(member), { old_password: 'wrong', new_password: 'brand-new-secret' }), 'Wrong password!');
    expectBadRequest(await doUpdateSettings(w.ctx, w.as(member), { new_password: 'brand-new-secret' }), 'Wrong password!');
    expect(await reload(w.ctx, member)).toEqual(before);
  });

  it('refuses a weak new password after checking the old one', async () => {
    const { w, member } = await world();
    expectBadRequest(await doUpdateSettings(w.ctx, w.as(member), { old_password: 'mel-password', new_password: 'short' }), 'New password is too weak!');
    expectBadRequest(await doUpdateSettings(w.ctx, w.as(member), { old_password: 'mel-password', new_password: 'x'.repeat(101) }), 'New password is too weak!');
    expectBadRequest(await doUpdateSettings(w.ctx, w.as(member), { old_password: 'wrong', new_password: 'short' }), 'Wrong password!');
  });

  it('ignores old_password alone', async () => {
    const { w, member } = await world();
    const before = await reload(w.ctx, member);
    must(await doUpdateSettings(w.ctx, w.as(member), { old_password: 'wrong' }));
    expect(await reload(w.ctx, member)).toEqual(before);
  });

  it('refuses a stale check: a password changed since the request was authenticated', async () => {
    const { w, member } = await world();
    const stale = w.as(member);
    must(await doUpdateSettings(w.ctx, w.as(member), { old_password: 'mel-password', new_password: 'second-password' }));
    // `stale` still holds the hash the old password matches.
    expectBadRequest(await doUpdateSettings(w.ctx, stale, { old_password: 'mel-password', new_password: 'third-password' }), 'Wrong password!');
  });
});

describe('PATCH /settings: email', () => {
  it('is refused when it differs from the current address, since there is no confirmation flow', async () => {
    const { w, member } = await world();
    expectBadRequest(
      await doUpdateSettings(w.ctx, w.as(member), { email: 'new@example.com' }),
      'Email address changes are disabled in this organization.',
    );
    expect((await reload(w.ctx, member)).deliveryEmail).toBe('member@example.com');
  });

  it('is accepted, and changes nothing, when it is the current address', async () => {
    const { w, member } = await world();
    const published = recorder(w.ctx);
    must(await doUpdateSettings(w.ctx, w.as(member), { email: ' member@example.com ', enter_sends: true }));
    expect(published.map((p) => p.event.property)).toEqual(['enter_sends']);
  });
});

describe('PATCH /settings: events keep a registered client current', () => {
  it('applying the queued events to the snapshot gives the fresh snapshot', async () => {
    const { w, member } = await world();
    const register = async (user: User) =>
      must(
        await doRegister(w.ctx, w.as(user), {
          fetch_event_types: ["user_settings","realm_user"],
          client_capabilities: {"user_settings_object":true},
        }),
      ) as Record<string, any>;
    const state = await register(member);
    const observer = await register(w.owner);

    must(await doUpdateSettings(w.ctx, w.as(member), { color_scheme: 3, default_language: 'fr', timezone: 'Europe/Paris' }));
    must(await doUpdateSettings(w.ctx, w.as(member), { full_name: 'Melanie', enter_sends: true, color_scheme: 1 }));

    const apply = (snapshot: Record<string, any>, events: QueuedEvent[]) => {
      for (const event of events) {
        if (event.type === 'user_settings') snapshot.user_settings[event.property] = event.value;
        if (event.type === 'realm_user' && event.op === 'update') {
          const { user_id, ...fields } = event.person;
          const entry = snapshot.realm_users.find((u: { user_id: number }) => u.user_id === user_id);
          Object.assign(entry, fields);
          if (user_id === snapshot.user_id && 'full_name' in fields) snapshot.full_name = fields.full_name;
        }
      }
      return snapshot;
    };
    const pending = (user: User, queueId: string) => w.ctx.queues.get(queueId, user.id)._unsafeUnwrap().pending();

    const memberEvents = pending(member, state.queue_id);
    expect(memberEvents.filter((e) => e.type === 'user_settings').map((e) => e.property)).toEqual([
      'color_scheme',
      'default_language',
      'timezone',
      'color_scheme',
      'enter_sends',
    ]);
    const fresh = await register(member);
    const applied = apply(state, memberEvents);
    expect(applied.user_settings).toEqual(fresh.user_settings);
    expect(applied.realm_users).toEqual(fresh.realm_users);
    expect(applied.full_name).toBe(fresh.full_name);

    // Another user's queue gets the realm_user updates but none of the member's settings.
    const observed = pending(w.owner, observer.queue_id);
    expect(observed.map((e) => e.type)).not.toContain('user_settings');
    expect(apply(observer, observed).realm_users).toEqual((await register(w.owner)).realm_users);
  });
});
