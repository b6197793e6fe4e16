/**
 * Custom emoji: uploading and deactivating (the reference's views/realm_emoji.py), with
 * `realm_emoji` events to the whole realm after commit.
 */
import { err, ok } from 'neverthrow';
import { isAdmin } from '../access/roles.js';
import { hasRealmPermission } from '../access/realm-rules.js';
import { checkCustomEmojiName } from '../emoji/custom-name.js';
import { detectImageType, MAX_EMOJI_FILE_SIZE_MIB } from '../emoji/image.js';
import { unicodeEmojiByName } from '../emoji/unicode.js';
import { badRequest, insufficientPermission, resourceNotFound } from '../errors.js';
import { type Actor, userOperation } from '../operation.js';
import { RealmEmojiNameParams } from '../schemas/reactions.js';
import { uploadedFiles } from '../schemas/upload.js';
import { announceRealmEmoji } from '../emoji/realm-emoji-events.js';
import { transactionAs } from '../transaction.js';

/**
 * POST /realm/emoji/{emoji_name} with exactly one image file. Spaces in the name become
 * underscores, as in the reference. Returns an empty success.
 */
export const doAddRealmEmoji = userOperation(RealmEmojiNameParams, async (ctx, requester: Actor, params) => {
  const name = checkCustomEmojiName(params.emoji_name.trim().replaceAll(' ', '_'));
  if (name.isErr()) return err(name.error);
  const files = uploadedFiles(params);
  return transactionAs(ctx, requester, async (tx, actor) => {
    if (!hasRealmPermission(actor.user, actor.realm, 'can_add_custom_emoji_group')) return err(insufficientPermission());
    const all = await tx.realmEmoji.list(actor.realm.id);
    if (all.some((e) => !e.deactivated && e.name === name.value)) return err(badRequest('A custom emoji with this name already exists.'));
    if (files.length !== 1) return err(badRequest('You must upload exactly one file.'));
    if (unicodeEmojiByName(name.value) !== undefined && !isAdmin(actor.user)) {
      return err(badRequest('Only administrators can override default emoji.'));
    }
    const file = files[0]!;
    if (file.bytes.byteLength > MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024) {
      return err(badRequest(`Uploaded file is larger than the allowed limit of ${MAX_EMOJI_FILE_SIZE_MIB} MiB`));
    }
    const contentType = detectImageType(file.bytes);
    if (!contentType) return err(badRequest('Invalid image format'));
    const emoji = await tx.realmEmoji.insert(
      { realmId: actor.realm.id, name: name.value, authorId: actor.user.id, deactivated: false, contentType },
      file.bytes,
    );
    await announceRealmEmoji(ctx, tx, actor.realm, { op: 'add', emoji });
    return ok({});
  });
});

/**
 * DELETE /realm/emoji/{emoji_name}: deactivates the active emoji of that name. Its author or an
 * administrator may; the image stays, for the messages and reactions that show it.
 */
export const doDeactivateRealmEmoji = userOperation(RealmEmojiNameParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, actor) => {
    const emoji = (await tx.realmEmoji.list(actor.realm.id)).find((e) => !e.deactivated && e.name === params.emoji_name);
    if (!emoji) return err(resourceNotFound(`Emoji '${params.emoji_name}' does not exist`));
    if (!isAdmin(actor.user) && emoji.authorId !== actor.user.id) {
      return err(badRequest('Must be an organization administrator or emoji author'));
    }
    await tx.realmEmoji.deactivate(actor.realm.id, emoji.id);
    await announceRealmEmoji(ctx, tx, actor.realm, { op: 'deactivate', emoji: { ...emoji, deactivated: true } });
    return ok({});
  }),
);
