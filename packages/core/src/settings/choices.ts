/**
 * The fixed choices behind some personal settings: the interface languages, the notification
 * sounds and the emoji sets the reference server offers (SHAPES.md 2.9).
 */

/**
 * Language codes users may pick as `default_language`, with the name the reference reports in
 * `language_name` (each language's own name for itself). The codes are the reference's locale
 * directories in Django's form (`pt_BR` → `pt-br`).
 */
export const LANGUAGES: Readonly<Record<string, string>> = {
  ar: 'العربيّة',
  be: 'беларуская',
  bg: 'български',
  bn: 'বাংলা',
  bqi: 'بختیاری',
  ca: 'català',
  cs: 'česky',
  cy: 'Cymraeg',
  da: 'dansk',
  de: 'Deutsch',
  el: 'Ελληνικά',
  en: 'English',
  'en-gb': 'British English',
  eo: 'Esperanto',
  es: 'español',
  et: 'eesti',
  fa: 'فارسی',
  fi: 'suomi',
  fr: 'français',
  gl: 'galego',
  gu: 'ગુજરાતી',
  hi: 'हिंदी',
  hu: 'Magyar',
  id: 'Bahasa Indonesia',
  it: 'italiano',
  ja: '日本語',
  kk: 'Қазақ',
  ko: '한국어',
  lt: 'Lietuviškai',
  lv: 'latviešu',
  ml: 'മലയാളം',
  mn: 'Монгол',
  my: 'မြန်မာဘာသာ',
  nl: 'Nederlands',
  no: 'norsk',
  pl: 'polski',
  pt: 'Português',
  'pt-br': 'Português Brasileiro',
  'pt-pt': 'Português (Portugal)',
  ro: 'Română',
  ru: 'Русский',
  si: 'සිංහල',
  sl: 'Slovenščina',
  sr: 'српски',
  sv: 'svenska',
  ta: 'தமிழ்',
  tl: 'Tagalog',
  tr: 'Türkçe',
  uk: 'Українська',
  vi: 'Tiếng Việt',
  'zh-hans': '简体中文',
  'zh-hant': '繁體中文',
  'zh-tw': '中文 (台灣)',
};

/** The server's notification sounds, sorted, as `available_notification_sounds` lists them. */
export const NOTIFICATION_SOUNDS: readonly string[] = [
  'ascend',
  'beep_boop',
  'bink',
  'bright',
  'brlip',
  'chime',
  'deep tom',
  'ding',
  'double tap',
  'down',
  'dry bongos',
  'dutdut',
  'fast ascend',
  'flute',
  'friendly',
  'kick roll',
  'loud tintong',
  'metallic snare',
  'pan',
  'shaker',
  'simple',
  'stairs',
  'subtle',
  'swish',
  'tintong',
  'up',
  'wood block',
  'zaping',
  'zing',
  'zulip',
];

/** `notification_sound` also takes "none" (no sound), which is not a file and not listed. */
export const SILENT_NOTIFICATION_SOUND = 'none';

/** The emoji sets, in the reference's order, as `emojiset_choices` lists them. */
export const EMOJISET_CHOICES: readonly { key: string; text: string }[] = [
  { key: 'google', text: 'Google' },
  { key: 'twitter', text: 'Twitter' },
  { key: 'text', text: 'Plain text' },
  { key: 'google-blob', text: 'Google blobs' },
];

/** What the reference reports as `language_name` for a code it does not know. */
export const languageName = (code: string): string => LANGUAGES[code] ?? 'Unknown';
