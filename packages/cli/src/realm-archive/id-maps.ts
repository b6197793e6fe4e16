/**
 * Old ID → new ID for every kind of row an import renumbers, and the rewriting of the places that
 * hold IDs inside values: group settings, direct-conversation keys, JSON lists, and message
 * content (mentions, channel and message links, upload and emoji paths).
 */
import { REALM_GROUP_SETTING_DEFAULTS } from '@teamchat/core/internal';
import { CliError } from '../data-dir.js';

/** The kinds of IDs an import renumbers: each is the `id` column of the table of the same name. */
export type IdKind =
  | 'realm'
  | 'user'
  | 'stream'
  | 'message'
  | 'attachment'
  | 'realm_emoji'
  | 'user_group'
  | 'channel_folder'
  | 'custom_profile_field'
  | 'scheduled_message'
  | 'dm_conversation'
  | 'draft'
  | 'saved_snippet'
  | 'muted_user'
  | 'navigation_view'
  | 'reaction'
  | 'realm_domain'
  | 'realm_linkifier'
  | 'realm_playground'
  | 'submessage';

/** System groups have the same fixed IDs in every realm (core's SYSTEM_GROUPS): they are never renumbered. */
const SYSTEM_GROUP_MAX_ID = 8;

export class IdMaps {
  readonly #maps = new Map<IdKind, Map<number, number>>();
  oldRealmId = 0;
  newRealmId = 0;

  /** Gives `oldIds` (ascending) new IDs above `floor`, in the same order. */
  assign(kind: IdKind, oldIds: number[], floor: number): void {
    const map = this.#of(kind);
    let next = floor;
    for (const old of oldIds) if (!map.has(old)) map.set(old, ++next);
  }

  set(kind: IdKind, oldId: number, newId: number): void {
    this.#of(kind).set(oldId, newId);
  }

  has(kind: IdKind, oldId: number): boolean {
    return this.#of(kind).has(oldId);
  }

  count(kind: IdKind): number {
    return this.#of(kind).size;
  }

  /** The new ID; an ID the archive never defined means the archive is inconsistent. */
  id(kind: IdKind, oldId: number, where: string): number {
    if (kind === 'user_group' && oldId <= SYSTEM_GROUP_MAX_ID) return oldId;
    const mapped = this.#of(kind).get(Number(oldId));
    if (mapped === undefined) throw new CliError(`--archive: ${where} names ${kind} ${oldId}, which the archive does not hold`);
    return mapped;
  }

  /** The new ID, or null for null; an unknown ID becomes null too (a reference to something since deleted). */
  optional(kind: IdKind, oldId: unknown): number | null {
    if (oldId === null || oldId === undefined) return null;
    if (kind === 'user_group' && Number(oldId) <= SYSTEM_GROUP_MAX_ID) return Number(oldId);
    return this.#of(kind).get(Number(oldId)) ?? null;
  }

  /** The new ID for an ID found inside text; an unknown one is left as it was (it named nothing here either). */
  inText(kind: IdKind, oldId: string): string {
    const mapped = this.optional(kind, oldId);
    return mapped === null ? oldId : String(mapped);
  }

  #of(kind: IdKind): Map<number, number> {
    let map = this.#maps.get(kind);
    if (!map) this.#maps.set(kind, (map = new Map()));
    return map;
  }
}

/** A direct conversation's key: its participants' sorted IDs, joined by commas. */
export function remapDmKey(maps: IdMaps, key: string, where: string): string {
  return key
    .split(',')
    .map((id) => maps.id('user', Number(id), where))
    .sort((a, b) => a - b)
    .join(',');
}

/** A stored group setting: a system group's name or ID, a user group's ID, or an anonymous group. */
export function remapGroupSetting(maps: IdMaps, value: unknown): unknown {
  if (typeof value === 'number') return maps.optional('user_group', value) ?? value;
  if (value && typeof value === 'object' && 'direct_members' in value) {
    const group = value as { direct_members: number[]; direct_subgroups: (string | number)[] };
    return {
      direct_members: group.direct_members.map((id) => maps.optional('user', id)).filter((id) => id !== null),
      direct_subgroups: group.direct_subgroups.map((id) => (typeof id === 'number' ? (maps.optional('user_group', id) ?? id) : id)),
    };
  }
  return value;
}

/** Group settings whose names do not end in `_group`. */
const GROUP_SETTING_NAMES = new Set(Object.keys(REALM_GROUP_SETTING_DEFAULTS));

/**
 * A settings object (the realm's, a channel's or a group's): `…_group` values (and the realm's
 * other group settings) are group settings, `…_stream_id` / `…_channel_id` values name a
 * channel (-1 and null name none).
 */
export function remapSettings(maps: IdMaps, json: string): string {
  const settings = JSON.parse(json) as Record<string, unknown>;
  for (const [key, value] of Object.entries(settings)) {
    if (key.endsWith('_group') || GROUP_SETTING_NAMES.has(key)) settings[key] = remapGroupSetting(maps, value);
    else if ((key.endsWith('_stream_id') || key.endsWith('_channel_id')) && typeof value === 'number' && value > 0) {
      settings[key] = maps.optional('stream', value) ?? -1;
    }
  }
  return JSON.stringify(settings);
}

/**
 * Message text, raw or rendered: every ID it carries that names a row of the realm. Markdown
 * keeps user IDs in `@**Name|id**` and message IDs in `#**channel>topic@id**`; the HTML keeps
 * them in data attributes and `#narrow/…` links. Upload and emoji paths carry the realm's ID.
 */
export function remapContent(maps: IdMaps, text: string): string {
  if (text === '') return text;
  const realm = String(maps.oldRealmId);
  return (
    text
      .replace(/(@_?\*\*[^*|]*\|)(\d+)(\*\*)/g, (_, a: string, id: string, b: string) => `${a}${maps.inText('user', id)}${b}`)
      .replace(/(#\*\*[^*]*@)(\d+)(\*\*)/g, (_, a: string, id: string, b: string) => `${a}${maps.inText('message', id)}${b}`)
      .replace(/(data-user-id=")(\d+)(")/g, (_, a: string, id: string, b: string) => `${a}${maps.inText('user', id)}${b}`)
      .replace(/(data-user-group-id=")(\d+)(")/g, (_, a: string, id: string, b: string) => `${a}${maps.inText('user_group', id)}${b}`)
      .replace(/(data-stream-id=")(\d+)(")/g, (_, a: string, id: string, b: string) => `${a}${maps.inText('stream', id)}${b}`)
      .replace(/(#narrow\/(?:channel|stream)\/)(\d+)(?=[-/"'\s]|$)/g, (_, a: string, id: string) => `${a}${maps.inText('stream', id)}`)
      .replace(/(\/(?:near|with)\/)(\d+)/g, (_, a: string, id: string) => `${a}${maps.inText('message', id)}`)
      .replace(/(#narrow\/dm\/)([\d,]+)(?=-|\/|"|$)/g, (_, a: string, ids: string) => `${a}${ids.split(',').map((id) => maps.inText('user', id)).join(',')}`)
      .replace(new RegExp(`(/user_uploads/)${realm}(/)`, 'g'), `$1${maps.newRealmId}$2`)
      .replace(new RegExp(`(/user_avatars/)${realm}(/emoji/images/)(\\d+)`, 'g'), (_, a: string, b: string, id: string) => `${a}${maps.newRealmId}${b}${maps.inText('realm_emoji', id)}`)
  );
}

/** An attachment's `path_id` starts with its realm's ID. */
export function remapPathId(maps: IdMaps, pathId: string): string {
  const slash = pathId.indexOf('/');
  return slash < 0 ? pathId : `${maps.newRealmId}${pathId.slice(slash)}`;
}
