/**
 * Views ⇄ URL hashes, encoded as the reference's web app encodes them so that its links open
 * here too: `#narrow/channel/12-general/topic/lunch.20plans`. Each component is
 * `encodeURIComponent` with `%` written as `.` (and `.`, `(`, `)` escaped), which keeps hashes
 * readable and free of characters that mail clients and chat previews mangle.
 */
import type { View } from './view';

const REPLACEMENTS: Record<string, string> = { '%': '.', '(': '.28', ')': '.29', '.': '.2E' };

export function encodeHashComponent(text: string): string {
  return encodeURIComponent(text).replace(/[%().]/g, (matched) => REPLACEMENTS[matched]!);
}

/** The inverse of `encodeHashComponent`; text that does not decode is taken as it is. */
export function decodeHashComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\./g, '%'));
  } catch {
    return text;
  }
}

/** A channel's path segment: its ID, then its name as a slug (spaces as dashes), as the reference writes it. */
export function channelSlug(channelId: number, name: string): string {
  return encodeHashComponent(`${channelId}-${name.replace(/ /g, '-')}`);
}

/** Names are optional: a channel's name only decorates the slug, the ID alone is read back. */
export type ChannelNames = (channelId: number) => string | undefined;

export function viewToHash(view: View, channelName: ChannelNames = () => undefined): string {
  switch (view.kind) {
    case 'inbox':
    case 'recent':
    case 'feed':
      return `#${view.kind}`;
    case 'channel': {
      const name = channelName(view.channelId);
      const channel = name === undefined ? String(view.channelId) : channelSlug(view.channelId, name);
      const topic = view.topic === undefined ? '' : `/topic/${encodeHashComponent(view.topic)}`;
      return `#narrow/channel/${channel}${topic}`;
    }
    case 'dm': {
      const ids = [...view.userIds].sort((a, b) => a - b);
      return `#narrow/dm/${ids.join(',')}-${ids.length > 1 ? 'group' : 'dm'}`;
    }
    case 'all-dms':
      return '#narrow/is/dm';
    case 'starred':
      return '#narrow/is/starred';
    case 'mentioned':
      return '#narrow/is/mentioned';
    case 'search':
      return `#narrow/search/${encodeHashComponent(view.query)}`;
    case 'settings':
      return `#settings/${encodeHashComponent(view.section)}`;
    case 'channels':
      return '#channels/all';
  }
}

/** The leading number of a `12-general` or `3,5-group` slug. */
function leadingIds(slug: string): number[] | undefined {
  const match = /^(\d+(?:,\d+)*)(?:-|$)/.exec(decodeHashComponent(slug));
  return match ? match[1]!.split(',').map(Number) : undefined;
}

/** The view a hash names; undefined for a hash this app does not know (the caller picks its home view). */
export function hashToView(hash: string): View | undefined {
  const path = hash.replace(/^#/, '');
  const parts = path.split('/');
  const [head] = parts;
  if (head === 'inbox' || head === 'recent' || head === 'feed') return { kind: head };
  if (head === 'channels' || head === 'streams') return { kind: 'channels' };
  if (head === 'all_messages' || head === 'combined-feed') return { kind: 'feed' };
  if (head === 'settings' || head === 'organization') return { kind: 'settings', section: decodeHashComponent(parts[1] ?? 'profile') || 'profile' };
  if (head !== 'narrow') return undefined;
  return narrowToView(parts.slice(1));
}

/** `operator/operand` pairs after `#narrow/`. */
function narrowToView(parts: string[]): View | undefined {
  let channelId: number | undefined;
  let topic: string | undefined;
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const operator = parts[i]!;
    const operand = parts[i + 1]!;
    switch (operator) {
      case 'channel':
      case 'stream':
        channelId = leadingIds(operand)?.[0];
        if (channelId === undefined) return undefined;
        break;
      case 'topic':
      case 'subject':
        topic = decodeHashComponent(operand);
        break;
      case 'dm':
      case 'pm-with': {
        const userIds = leadingIds(operand);
        return userIds ? { kind: 'dm', userIds } : undefined;
      }
      case 'is':
        if (operand === 'starred') return { kind: 'starred' };
        if (operand === 'mentioned') return { kind: 'mentioned' };
        if (operand === 'dm' || operand === 'private') return { kind: 'all-dms' };
        return { kind: 'search', query: `is:${decodeHashComponent(operand)}` };
      case 'search':
        return { kind: 'search', query: decodeHashComponent(operand) };
      default:
        return undefined;
    }
  }
  return channelId === undefined ? undefined : { kind: 'channel', channelId, ...(topic === undefined ? {} : { topic }) };
}
