/**
 * The emoji the picker and autocomplete offer: the server's unicode emoji (register's
 * `server_emoji_data_url`, fetched once) and the realm's custom emoji.
 */
import type { Client } from '@teamchat/client';
import type { RealmEmoji } from '../stores/chat';

export interface EmojiChoice {
  name: string;
  /** Other names the same emoji answers to. */
  aliases: string[];
  code: string;
  reactionType: 'unicode_emoji' | 'realm_emoji';
  /** The glyph of a unicode emoji, or the image URL of a custom one. */
  glyph?: string;
  imageUrl?: string;
}

/** `1f44d` or `1f468-200d-1f4bb` as the characters it names. */
export function glyphOf(code: string): string {
  try {
    return String.fromCodePoint(...code.split('-').map((part) => Number.parseInt(part, 16)));
  } catch {
    return '';
  }
}

export function unicodeChoices(codeToNames: Record<string, string[]>): EmojiChoice[] {
  return Object.entries(codeToNames).map(([code, names]) => ({
    name: names[0]!,
    aliases: names.slice(1),
    code,
    reactionType: 'unicode_emoji' as const,
    glyph: glyphOf(code),
  }));
}

export function realmChoices(realmEmoji: Readonly<Record<string, RealmEmoji>>): EmojiChoice[] {
  return Object.values(realmEmoji)
    .filter((emoji) => !emoji.deactivated)
    .map((emoji) => ({ name: emoji.name, aliases: [], code: emoji.id, reactionType: 'realm_emoji' as const, imageUrl: emoji.source_url }));
}

/**
 * Choices whose name or an alias matches the query: exact names first, then names starting with
 * it, then names containing it. A choice found by an alias is offered under that alias (a search
 * for "thumbs_up" offers thumbs_up, not +1), which is also the name it is reacted with.
 */
export function searchEmoji(choices: readonly EmojiChoice[], query: string, limit = 200): EmojiChoice[] {
  const text = query.trim().toLowerCase().replace(/\s+/g, '_');
  if (!text) return choices.slice(0, limit);
  const ranked: Array<[number, EmojiChoice]> = [];
  for (const choice of choices) {
    const names = [choice.name, ...choice.aliases];
    const exact = names.find((name) => name === text);
    const starts = names.find((name) => name.startsWith(text));
    const contains = names.find((name) => name.includes(text));
    const matched = exact ?? starts ?? contains;
    if (matched === undefined) continue;
    const rank = exact ? 0 : starts ? 1 : 2;
    ranked.push([rank, matched === choice.name ? choice : { ...choice, name: matched, aliases: names.filter((name) => name !== matched) }]);
  }
  return ranked
    .sort((a, b) => a[0] - b[0])
    .slice(0, limit)
    .map(([, choice]) => choice);
}

let unicodeLoad: Promise<EmojiChoice[]> | undefined;

/** The server's unicode emoji, fetched on first use and kept for the tab's life. */
export function loadUnicodeEmoji(client: Client, dataUrl: string | undefined): Promise<EmojiChoice[]> {
  if (!dataUrl) return Promise.resolve([]);
  // The URL names the realm's address, which is the server this tab talks to: fetched by path,
  // so it also works behind the dev server's proxy.
  const url = new URL(dataUrl, location.origin);
  unicodeLoad ??= client
    .fetchFile(url.pathname + url.search)
    .then((response) => response.json() as Promise<{ code_to_names: Record<string, string[]> }>)
    .then((data) => unicodeChoices(data.code_to_names))
    .catch(() => {
      unicodeLoad = undefined;
      return [];
    });
  return unicodeLoad;
}
