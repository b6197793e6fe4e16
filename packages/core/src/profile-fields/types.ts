/** Custom profile field types and the default external account providers (FACTS.md 7.1, 7.3). */

export const SHORT_TEXT = 1;
export const LONG_TEXT = 2;
export const SELECT = 3;
export const DATE = 4;
export const URL_TYPE = 5;
export const USER = 6;
export const EXTERNAL_ACCOUNT = 7;
export const PRONOUNS = 8;

/** The register's `custom_profile_field_types`, keyed as in the reference, with its UI names. */
export const FIELD_TYPES: Readonly<Record<string, { id: number; name: string }>> = {
  SHORT_TEXT: { id: SHORT_TEXT, name: 'Text (short)' },
  LONG_TEXT: { id: LONG_TEXT, name: 'Text (long)' },
  SELECT: { id: SELECT, name: 'List of options' },
  DATE: { id: DATE, name: 'Date' },
  URL: { id: URL_TYPE, name: 'Link' },
  USER: { id: USER, name: 'Users' },
  EXTERNAL_ACCOUNT: { id: EXTERNAL_ACCOUNT, name: 'External account' },
  PRONOUNS: { id: PRONOUNS, name: 'Pronouns' },
};

/** Types whose values are Markdown and get a `rendered_value`. */
export const MARKDOWN_TYPES: ReadonlySet<number> = new Set([SHORT_TEXT, LONG_TEXT]);

/** Types that may be used for user matching (API.md 2.3). */
export const USER_MATCHING_TYPES: ReadonlySet<number> = new Set([SHORT_TEXT, EXTERNAL_ACCOUNT]);

/** Types that may not be shown in the profile summary (Paragraph may, from FL 476). */
export const NOT_IN_SUMMARY: ReadonlySet<number> = new Set([USER]);

/** At most this many fields of a realm are shown in the profile summary. */
export const MAX_SUMMARY_FIELDS = 2;
export const NAME_MAX_LENGTH = 40;
export const HINT_MAX_LENGTH = 80;

export interface ExternalAccountProvider {
  text: string;
  name: string;
  hint: string;
  urlPattern: string;
}

const provider = (text: string, urlPattern: string, name = `${text} username`): ExternalAccountProvider => ({
  text,
  name,
  hint: '',
  urlPattern,
});

/** The server's default external account providers, by subtype (FACTS.md 7.3). */
export const DEFAULT_EXTERNAL_ACCOUNTS: Readonly<Record<string, ExternalAccountProvider>> = {
  behance: provider('Behance', 'https://www.behance.net/%(username)s'),
  bitbucket: provider('Bitbucket', 'https://bitbucket.org/%(username)s'),
  bluesky: provider('Bluesky', 'https://bsky.app/profile/%(username)s', 'Bluesky handle'),
  codeberg: provider('Codeberg', 'https://codeberg.org/%(username)s'),
  discord: provider('Discord', '', 'Discord tag'),
  dribbble: provider('Dribbble', 'https://dribbble.com/%(username)s'),
  facebook: provider('Facebook', 'https://www.facebook.com/%(username)s'),
  github: provider('GitHub', 'https://github.com/%(username)s'),
  gitlab: provider('GitLab', 'https://gitlab.com/%(username)s'),
  instagram: provider('Instagram', 'https://www.instagram.com/%(username)s'),
  linkedin: provider('LinkedIn', 'https://www.linkedin.com/in/%(username)s', 'LinkedIn profile name'),
  mastodon: { text: 'Mastodon', name: 'Mastodon profile', hint: 'The full URL to your profile', urlPattern: '%(username)s' },
  medium: provider('Medium', 'https://%(username)s.medium.com'),
  pinterest: provider('Pinterest', 'https://www.pinterest.com/%(username)s'),
  reddit: provider('Reddit', 'https://www.reddit.com/user/%(username)s'),
  snapchat: provider('Snapchat', 'https://www.snapchat.com/@%(username)s'),
  threads: provider('Threads', 'https://www.threads.com/@%(username)s'),
  tiktok: provider('TikTok', 'https://www.tiktok.com/@%(username)s'),
  twitch: provider('Twitch', 'https://www.twitch.tv/%(username)s'),
  x: provider('X', 'https://x.com/%(username)s'),
  youtube: provider('YouTube', 'https://www.youtube.com/%(username)s', 'YouTube handle'),
};

/** Whether a field is an external account field of a default provider (any subtype but custom). */
export function isDefaultExternalField(type: number, fieldData: Record<string, unknown> | null): boolean {
  return type === EXTERNAL_ACCOUNT && typeof fieldData?.subtype === 'string' && fieldData.subtype !== 'custom';
}
