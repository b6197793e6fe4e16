import { imageExtension } from '../emoji/image.js';
import type { RealmEmojiRef } from '../emoji/types.js';
import type { RealmEmoji } from '../storage/types.js';

/** The image's file name in its URL: the emoji ID and the image type's extension. */
export const realmEmojiFileName = (emoji: Pick<RealmEmoji, 'id' | 'contentType'>) => `${emoji.id}.${imageExtension(emoji.contentType)}`;

/**
 * Where the image is served: relative to the realm's URL, as the reference's local storage
 * gives it (`/user_avatars/{realm_id}/emoji/images/{file}`).
 */
export const realmEmojiUrl = (emoji: Pick<RealmEmoji, 'id' | 'realmId' | 'contentType'>) =>
  `/user_avatars/${emoji.realmId}/emoji/images/${realmEmojiFileName(emoji)}`;

/** A custom emoji (SHAPES.md 5.14). */
export interface ApiRealmEmoji {
  /** The emoji's ID, as a string. */
  id: string;
  name: string;
  /** The image's path, relative to the realm's URL. */
  source_url: string;
  /** Always null: no still images of animated emoji are made. */
  still_url: string | null;
  deactivated: boolean;
  author_id: number | null;
}

/** A custom emoji as the API shows it (SHAPES.md 5.14). No still images are made, so `still_url` is null. */
export function formatRealmEmoji(emoji: RealmEmoji): ApiRealmEmoji {
  return {
    id: String(emoji.id),
    name: emoji.name,
    source_url: realmEmojiUrl(emoji),
    still_url: null,
    deactivated: emoji.deactivated,
    author_id: emoji.authorId,
  };
}

/** The realm's emoji keyed by ID string: GET /realm/emoji, register and the legacy event. */
export function realmEmojiDict(emoji: readonly RealmEmoji[]): Record<string, ApiRealmEmoji> {
  return Object.fromEntries(emoji.map((e) => [String(e.id), formatRealmEmoji(e)]));
}

/** The emoji checks' view of stored emoji (emoji/check.ts). */
export const realmEmojiRefs = (emoji: readonly RealmEmoji[]): RealmEmojiRef[] =>
  emoji.map((e) => ({ id: String(e.id), name: e.name, deactivated: e.deactivated }));
