import { FLAG_BITS, type StoredFlag } from '../storage/message-types.js';

/** Flags a user may set with POST /messages/flags (API.md 2.10). */
export const SETTABLE_FLAGS = ['read', 'starred', 'collapsed', 'hide_link_previews'] as const;
export type SettableFlag = (typeof SETTABLE_FLAGS)[number];

/** Every flag name the API knows, settable or not. */
export const API_FLAGS = [...Object.keys(FLAG_BITS), 'wildcard_mentioned'] as readonly string[];

/** Bits of the flags computed from content (recomputed on edit). */
export const CONTENT_FLAG_MASK =
  FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned | FLAG_BITS.has_alert_word;

/** FLAG_BITS as a list, made once: flagNames runs for every message of every page and event. */
const FLAG_ENTRIES = Object.entries(FLAG_BITS) as [StoredFlag, number][];

/** The flag list of a copy, as messages and events carry it (a new array: callers may add to it). */
export function flagNames(bits: number): string[] {
  const names: string[] = [];
  for (const [name, bit] of FLAG_ENTRIES) if (bits & bit) names.push(name);
  if (bits & (FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned)) names.push('wildcard_mentioned');
  return names;
}
