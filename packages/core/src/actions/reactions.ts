/**
 * Adding and removing emoji reactions (API.md 2.11, 4.15; FACTS.md 9, the reference's
 * actions/reactions.py and views/reactions.py): checks in the reference's order, the write, and
 * a `reaction` event to everyone who can see the message, after commit.
 */
import { err, ok } from 'neverthrow';
import type { Ctx } from '../context.js';
import { checkEmojiCode, checkEmojiRequest, type EmojiRef, realmEmojiLookup, resolveEmojiByName } from '../emoji/index.js';
import { ApiError, badRequest } from '../errors.js';
import { publishOnCommit } from '../events/publish.js';
import { realmEmojiRefs } from '../format/realm-emoji.js';
import { accessMessage } from '../messages/access.js';
import { Audiences } from '../messages/holders.js';
import { type Actor, userOperation } from '../operation.js';
import { AddReactionParams, RemoveReactionParams } from '../schemas/reactions.js';
import { FLAG_BITS, type Message, type Reaction, type Realm, type Tx } from '../storage/types.js';
import { transactionAs } from '../transaction.js';
import { applyReactionPolicy } from '../messages/automatic-topic-policy.js';

const reactionExists = () => new ApiError('REACTION_ALREADY_EXISTS', 'Reaction already exists.');
const reactionMissing = () => new ApiError('REACTION_DOES_NOT_EXIST', "Reaction doesn't exist.");

async function emojiLookup(tx: Tx, realm: Realm) {
  return realmEmojiLookup(realmEmojiRefs(await tx.realmEmoji.list(realm.id)));
}

/**
 * POST /messages/{message_id}/reactions. A reaction another user already made with the same
 * emoji is a "vote": it takes that reaction's name and skips the emoji checks, so a custom emoji
 * deactivated since still works.
 */
export const doAddReaction = userOperation(AddReactionParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, actor) => {
    const message = await accessMessage(tx, actor.user, params.message_id);
    if (message.isErr()) return err(message.error);
    const lookup = await emojiLookup(tx, actor.realm);
    let { emoji_code: code, reaction_type: type } = params;
    // Only what the client left out comes from the name; a code it sent is kept and checked.
    if (code === undefined || type === undefined) {
      const resolved = resolveEmojiByName(params.emoji_name, lookup);
      if (resolved.isErr()) return err(resolved.error);
      code ??= resolved.value.emoji_code;
      type ??= resolved.value.reaction_type;
    }
    const same = (await tx.reactions.forMessages([message.value.id])).filter((r) => r.emojiCode === code && r.reactionType === type);
    if (same.some((r) => r.userId === actor.user.id)) return err(reactionExists());
    let emoji: EmojiRef;
    if (same.length > 0) emoji = { emoji_name: same[0]!.emojiName, emoji_code: code, reaction_type: same[0]!.reactionType };
    else {
      const checked = checkEmojiRequest({ emoji_name: params.emoji_name, emoji_code: code, reaction_type: type }, lookup);
      if (checked.isErr()) return err(checked.error);
      emoji = checked.value;
    }
    // Reacting to a channel message one never received gives a historical copy, so that later
    // changes to the message reach the reactor (the reference does the same).
    const copies = await tx.messages.flagsOf(actor.user.id, [message.value.id]);
    if (!copies.has(message.value.id)) {
      await tx.messages.addRecipients(message.value.id, [{ userId: actor.user.id, flags: FLAG_BITS.read | FLAG_BITS.historical }]);
    }
    const reaction: Reaction = {
      messageId: message.value.id,
      userId: actor.user.id,
      emojiName: emoji.emoji_name,
      emojiCode: emoji.emoji_code,
      reactionType: emoji.reaction_type,
    };
    await tx.reactions.add(actor.realm.id, reaction);
    // Reacting is participating: it may follow or unmute the topic, announced before the reaction.
    if (message.value.type === 'stream') {
      const stream = await tx.streams.byId(actor.realm.id, message.value.streamId!);
      if (stream) await applyReactionPolicy(ctx, tx, actor.user, stream, message.value.topic);
    }
    await announceReaction(ctx, tx, actor.realm, message.value, reaction, 'add');
    return ok({});
  }),
);

/**
 * DELETE /messages/{message_id}/reactions: by emoji_code and reaction_type (default
 * unicode_emoji), or by emoji_name, whose code is looked up. A code the client sends that names
 * no emoji of its type is BAD_REQUEST (API.md; the reference does not check it).
 */
export const doRemoveReaction = userOperation(RemoveReactionParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, actor) => {
    const message = await accessMessage(tx, actor.user, params.message_id);
    if (message.isErr()) return err(message.error);
    const lookup = await emojiLookup(tx, actor.realm);
    let code = params.emoji_code;
    if (code === undefined) {
      if (params.emoji_name === undefined) {
        return err(badRequest('At least one of the following arguments must be present: emoji_name, emoji_code'));
      }
      const resolved = resolveEmojiByName(params.emoji_name, lookup);
      if (resolved.isErr()) return err(resolved.error);
      code = resolved.value.emoji_code;
    } else {
      const valid = checkEmojiCode(code, params.reaction_type, lookup);
      if (valid.isErr()) return err(valid.error);
    }
    const stored = (await tx.reactions.forMessages([message.value.id])).find(
      (r) => r.userId === actor.user.id && r.emojiCode === code && r.reactionType === params.reaction_type,
    );
    if (!stored) return err(reactionMissing());
    await tx.reactions.remove(actor.realm.id, stored);
    await announceReaction(ctx, tx, actor.realm, message.value, stored, 'remove');
    return ok({});
  }),
);

/** Who can see the message: users with a copy, and subscribers who read the channel's history. */
async function audienceOf(tx: Tx, realm: Realm, message: Message) {
  const stream = message.streamId === null ? undefined : await tx.streams.byId(realm.id, message.streamId);
  return (await Audiences.load(tx, realm.id)).of(message, stream);
}

/** The `reaction` event (SHAPES.md 4.6; no `user` object since FL 484), to who can see the message. */
async function announceReaction(ctx: Ctx, tx: Tx, realm: Realm, message: Message, reaction: Reaction, op: 'add' | 'remove') {
  publishOnCommit(ctx, tx, {
    realmId: realm.id,
    userIds: [...(await audienceOf(tx, realm, message)).keys()],
    event: {
      type: 'reaction',
      op,
      user_id: reaction.userId,
      message_id: message.id,
      emoji_name: reaction.emojiName,
      emoji_code: reaction.emojiCode,
      reaction_type: reaction.reactionType,
    },
  });
}
