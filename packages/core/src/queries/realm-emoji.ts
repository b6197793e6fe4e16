import { err, ok } from 'neverthrow';
import { notFound } from '../errors.js';
import { realmEmojiDict, realmEmojiFileName } from '../format/realm-emoji.js';
import { publicOperation, userOperation } from '../operation.js';
import { GetRealmEmojiParams, RealmEmojiImageParams } from '../schemas/reactions.js';

/** GET /realm/emoji: every custom emoji of the realm, deactivated ones included, keyed by ID. */
export const getRealmEmoji = userOperation(GetRealmEmojiParams, async (ctx, actor) =>
  ok({ emoji: realmEmojiDict(await ctx.storage.read((tx) => tx.realmEmoji.list(actor.realm.id))) }),
);

/** A custom emoji's image: the bytes and the type they were recognised as. */
export interface EmojiImage {
  contentType: string;
  bytes: Uint8Array;
}

/**
 * GET /user_avatars/{realm_id}/emoji/images/{file}: an emoji image, deactivated or not. No login:
 * messages embed these URLs in `<img>` tags, which browsers load without credentials, as the
 * reference serves them. Only the requested realm's own images are served (the realm from the
 * Host must be the one in the path), and only under the exact file name the API gives out.
 */
export const getRealmEmojiImage = publicOperation(RealmEmojiImageParams, async (ctx, caller, params) => {
  const id = /^([0-9]{1,15})\./.exec(params.file)?.[1];
  if (params.realm_id !== caller.realm.id || id === undefined) return err(notFound());
  const found = await ctx.storage.read(async (tx) => {
    const emoji = await tx.realmEmoji.byId(caller.realm.id, Number(id));
    if (!emoji || realmEmojiFileName(emoji) !== params.file) return undefined;
    return tx.realmEmoji.image(caller.realm.id, emoji.id);
  });
  return found ? ok<EmojiImage>(found) : err(notFound());
});
