/**
 * Every personal setting of SHAPES.md 2.9, in that order: its default (the reference's), the
 * struct that parses it as a PATCH /settings parameter, and the value checks the reference makes
 * after parsing. The one list that PATCH /settings, the `user_settings` register section and
 * the `user_settings` events all read.
 */
import type { Struct } from 'superstruct';
import { define } from '../schemas/known-structs.js';
import { fromText, json, JsonBool, JsonInt, Str } from '../schemas/wire.js';
import type { EmailVisibility, SettingValue, User } from '../storage/types.js';
import {
  EMOJISET_CHOICES,
  LANGUAGES,
  NOTIFICATION_SOUNDS,
  SILENT_NOTIFICATION_SOUND,
} from './choices.js';
import { canonicalTimeZone, isKnownTimeZone } from './time-zones.js';

/**
 * The reference validates enumerated settings with a validator that raises a plain ValueError,
 * which its parameter parser words as "Invalid {name}: Value error, {reason}".
 */
const valueError = (reason: string) => `Invalid {var}: Value error, ${reason}`;
const NOT_A_CHOICE = valueError('Not in the list of possible values');

/** A JSON integer from a fixed set. */
const intChoice = (choices: readonly number[]) =>
  json(
    define<number>('integer', (v) => {
      if (!Number.isSafeInteger(v)) return '{var} is not an integer';
      return choices.includes(v as number) || NOT_A_CHOICE;
    }),
  );

/** A raw string from a fixed set. */
const stringChoice = <T extends string>(choices: readonly T[], message = NOT_A_CHOICE) =>
  define<T>('string', (v) => {
    if (typeof v !== 'string') return '{var} is not a string';
    return (choices as readonly string[]).includes(v) || message;
  });

/** A JSON integer within [min, max], with the reference's "too small" / "too large" texts. */
const intRange = (min: number, max: number) =>
  json(
    define<number>('integer', (v) => {
      if (!Number.isSafeInteger(v)) return '{var} is not an integer';
      if ((v as number) < min) return '{var} is too small';
      return (v as number) <= max || '{var} is too large';
    }),
  );

/** A raw IANA time zone name, stored under its current name (see time-zones.ts). */
const TimeZoneName = fromText(
  define<string>('string', (v) => {
    if (typeof v !== 'string') return '{var} is not a string';
    return isKnownTimeZone(v) || valueError('Not a recognized time zone');
  }),
  canonicalTimeZone,
);

export interface SettingDefinition<T extends SettingValue | readonly unknown[]> {
  /** The value of a user who never changed the setting; for read-only settings, the value. */
  default: T;
  /** Parses the PATCH /settings parameter; null for the read-only settings. */
  param: Struct<T> | null;
  /**
   * A check of the parsed value that the reference makes only after every parameter parsed
   * (its `check_settings_values`): the error message, or null when the value is fine.
   */
  check?: (value: T) => string | null;
  /** The user field that holds the setting instead of the settings object. */
  field?: 'timezone' | 'emailAddressVisibility';
  /**
   * Also sent at the top level of the register response to clients without the
   * `user_settings_object` capability (the reference's pre-FL 89 settings keys).
   */
  legacy?: true;
}

/** What every setting's definition tells, whatever its value type. */
export interface SettingFacts {
  readonly default: unknown;
  readonly param: unknown;
  readonly field?: SettingDefinition<SettingValue>['field'];
  readonly legacy?: true;
}

type Extra<T extends SettingValue | readonly unknown[]> = Omit<SettingDefinition<T>, 'default' | 'param'>;
/** A definition without extras. */
type NoExtras = Record<never, never>;

/** A setting users may change. Its extras stay in its type (`legacy: true` names a legacy key). */
const setting = <T extends SettingValue, E extends Extra<T> = NoExtras>(
  defaultValue: T,
  param: Struct<T>,
  extra?: E,
): SettingDefinition<T> & { param: Struct<T> } & NoInfer<E> => ({ default: defaultValue, param, ...(extra as E) });

/** A setting only the server sets (the lists of choices). */
const readOnly = <T extends readonly unknown[], E extends Extra<T> = NoExtras>(value: T, extra?: E): SettingDefinition<T> & { param: null } & NoInfer<E> => ({
  default: value,
  param: null,
  ...(extra as E),
});

const bool = <E extends Extra<boolean> = NoExtras>(defaultValue: boolean, extra?: E) => setting(defaultValue, JsonBool, extra);
const legacy = { legacy: true } as const;

/** The reference's limit on the email batching period: one week. */
const MAX_BATCHING_PERIOD_SECONDS = 7 * 24 * 60 * 60;

/** Every setting of SHAPES.md 2.9, in that order. */
export const USER_SETTINGS = {
  // Settable as a boolean only; null ("the locale's default", FL 408) cannot be set (SHAPES 2.9).
  twenty_four_hour_time: setting<boolean | null, typeof legacy>(false, JsonBool as Struct<boolean | null>, legacy),
  web_mark_read_on_scroll_policy: setting(1, intChoice([1, 2, 3])),
  // 3 "list of topics" (FL 383) and 4 "top unread topic" (FL 401) included.
  web_channel_default_view: setting(1, intChoice([1, 2, 3, 4])),
  starred_message_counts: bool(true, legacy),
  receives_typing_notifications: bool(true),
  web_suggest_update_timezone: bool(true),
  fluid_layout_width: bool(false, legacy),
  high_contrast_mode: bool(false, legacy),
  // The ranges the reference's web app offers; its server stores any small integer, which no
  // client can display, so this server refuses values outside them.
  web_font_size_px: setting(16, intRange(12, 20)),
  web_line_height_percent: setting(140, intRange(122, 158)),
  color_scheme: setting(1, intChoice([1, 2, 3]), legacy),
  translate_emoticons: bool(false, legacy),
  display_emoji_reaction_users: bool(true),
  default_language: setting('en', Str, {
    legacy: true,
    check: (code: string) => (code in LANGUAGES ? null : 'Invalid default_language'),
  }),
  // "recent" replaced "recent_topics" at FL 454.
  web_home_view: setting('inbox', stringChoice(['recent', 'inbox', 'all_messages']), legacy),
  web_escape_navigates_to_home_view: bool(true),
  left_side_userlist: bool(false, legacy),
  emojiset: setting(
    'google',
    stringChoice(EMOJISET_CHOICES.map((choice) => choice.key)),
    legacy,
  ),
  demote_inactive_streams: setting(1, intChoice([1, 2, 3]), legacy),
  user_list_style: setting(3, intChoice([1, 2, 3])),
  web_animate_image_previews: setting('on_hover', stringChoice(['always', 'on_hover', 'never'])),
  web_stream_unreads_count_display_policy: setting(2, intChoice([1, 2, 3])),
  hide_ai_features: bool(false),
  web_left_sidebar_show_channel_folders: bool(true),
  web_inbox_show_channel_folders: bool(true),
  web_left_sidebar_unreads_count_summary: bool(true),
  timezone: setting('', TimeZoneName, { field: 'timezone' }),
  enter_sends: bool(false, legacy),
  enable_drafts_synchronization: bool(true, legacy),
  enable_stream_desktop_notifications: bool(false, legacy),
  enable_stream_email_notifications: bool(false, legacy),
  enable_stream_push_notifications: bool(false, legacy),
  enable_stream_audible_notifications: bool(false, legacy),
  notification_sound: setting('zulip', Str, {
    legacy: true,
    check: (sound: string) =>
      NOTIFICATION_SOUNDS.includes(sound) || sound === SILENT_NOTIFICATION_SOUND
        ? null
        : `Invalid notification sound '${sound}'`,
  }),
  enable_desktop_notifications: bool(true, legacy),
  enable_sounds: bool(true, legacy),
  enable_followed_topic_desktop_notifications: bool(true),
  enable_followed_topic_email_notifications: bool(true),
  enable_followed_topic_push_notifications: bool(true),
  enable_followed_topic_audible_notifications: bool(true),
  enable_followed_topic_wildcard_mentions_notify: bool(true),
  email_notifications_batching_period_seconds: setting(120, JsonInt, {
    legacy: true,
    check: (seconds: number) =>
      seconds <= 0 || seconds > MAX_BATCHING_PERIOD_SECONDS ? `Invalid email batching period: ${seconds} seconds` : null,
  }),
  enable_offline_email_notifications: bool(true, legacy),
  enable_offline_push_notifications: bool(true, legacy),
  enable_online_push_notifications: bool(true, legacy),
  enable_digest_emails: bool(true, legacy),
  enable_marketing_emails: bool(true, legacy),
  enable_login_emails: bool(true, legacy),
  message_content_in_email_notifications: bool(true, legacy),
  pm_content_in_desktop_notifications: bool(true, legacy),
  wildcard_mentions_notify: bool(true, legacy),
  desktop_icon_count_display: setting(1, intChoice([1, 2, 3, 4]), legacy),
  realm_name_in_email_notifications_policy: setting(1, intChoice([1, 2, 3]), legacy),
  automatically_follow_topics_policy: setting(3, intChoice([1, 2, 3, 4])),
  automatically_unmute_topics_in_muted_streams_policy: setting(2, intChoice([1, 2, 3, 4])),
  automatically_follow_topics_where_mentioned: bool(true),
  // Parsed by enum member name, whose failure the reference words without a reason.
  resolved_topic_notice_auto_read_policy: setting(
    'except_followed',
    stringChoice(['always', 'except_followed', 'never'], 'Invalid {var}'),
  ),
  presence_enabled: bool(true, legacy),
  available_notification_sounds: readOnly(NOTIFICATION_SOUNDS, legacy),
  emojiset_choices: readOnly(EMOJISET_CHOICES, legacy),
  send_private_typing_notifications: bool(true),
  send_stream_typing_notifications: bool(true),
  send_read_receipts: bool(true),
  allow_private_data_export: bool(false),
  email_address_visibility: setting<EmailVisibility>(1, intChoice([1, 2, 3, 4, 5]) as Struct<EmailVisibility>, {
    field: 'emailAddressVisibility',
  }),
  web_navigate_to_sent_message: bool(true),
} satisfies Record<string, SettingFacts>;

export type UserSettingName = keyof typeof USER_SETTINGS;

/** The value type of each setting. */
export type UserSettingValues = {
  [K in UserSettingName]: (typeof USER_SETTINGS)[K] extends SettingDefinition<infer T> ? T : never;
};

/** The settings PATCH /settings may change (all but the read-only lists). */
export type SettableSettingName = {
  [K in UserSettingName]: (typeof USER_SETTINGS)[K]['param'] extends null ? never : K;
}[UserSettingName];

const NAMES = Object.keys(USER_SETTINGS) as UserSettingName[];

/** The settable settings' names, in the order of SHAPES.md 2.9. */
export const SETTABLE_SETTINGS = NAMES.filter((name) => USER_SETTINGS[name].param !== null) as SettableSettingName[];

/** A user's value of one setting: their own choice, or the default. */
export function userSetting<K extends UserSettingName>(user: User | null, name: K): UserSettingValues[K] {
  const definition: SettingFacts = USER_SETTINGS[name];
  if (!user) return definition.default as UserSettingValues[K];
  if (definition.field) return user[definition.field] as UserSettingValues[K];
  const stored = user.settings[name];
  return (stored === undefined ? definition.default : stored) as UserSettingValues[K];
}

/**
 * The full `user_settings` object (SHAPES.md 2.9) of `user`; the defaults for a spectator.
 * Keys follow SHAPES.md 2.9's order.
 */
export function formatUserSettings(user: User | null): UserSettingValues {
  const out: Record<string, unknown> = {};
  for (const name of NAMES) out[name] = userSetting(user, name);
  return out as UserSettingValues;
}

/** The settings the register response repeats at the top level for pre-FL 89 clients. */
/** A setting's definition, seen without its value type. */
export const settingFacts = (name: UserSettingName): SettingFacts => USER_SETTINGS[name];

export const LEGACY_TOP_LEVEL_SETTINGS = NAMES.filter((name): name is LegacyTopLevelSettingName => settingFacts(name).legacy === true);

/** The names of the settings marked `legacy` in USER_SETTINGS. */
export type LegacyTopLevelSettingName = {
  [K in UserSettingName]: (typeof USER_SETTINGS)[K] extends { legacy: true } ? K : never;
}[UserSettingName];

/**
 * The stored settings object after setting `name` to `value`: only values that differ from the
 * default are kept, so setting a default back removes the entry.
 */
export function withSetting(
  stored: Readonly<Record<string, SettingValue>>,
  name: UserSettingName,
  value: SettingValue,
): Record<string, SettingValue> {
  const { [name]: _previous, ...rest } = stored;
  return value === USER_SETTINGS[name].default ? rest : { ...rest, [name]: value };
}
