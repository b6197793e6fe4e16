import { hasContentAccess } from '../access/channel-rules.js';
import { realmLinkifiers } from '../linkifiers/for-render.js';
import { type Linkifier, renderMessage, type RenderContext, renderPlainText } from '../markdown/index.js';
import type { Realm, RealmEmoji, StoredUserGroup, Stream, Tx, User } from '../storage/types.js';
import { renderContextFor } from './render-context.js';

/**
 * Renders `content` as `sender` would send it at `nowMs` (only channels they may read are linked).
 *
 * The realm's users, channels, groups and custom emoji are read only when the renderer looks
 * one up (any emoji lookup needs the custom ones, which shadow the unicode names): most
 * messages mention nobody, and reading every user per send was most of a send's cost. The
 * first pass runs with those directories unloaded and records which were asked for; each
 * missed one is then read in full and the message rendered again, until a pass misses nothing.
 * The result is exactly the render with every directory loaded, since the final pass answered
 * every lookup from a complete directory.
 * `linkifiers` are the realm's (realmLinkifiers), when the caller has read them already.
 */
export async function renderAs(tx: Tx, realm: Realm, sender: User, content: string, nowMs: number, linkifiers?: readonly Linkifier[]) {
  linkifiers ??= await realmLinkifiers(tx, realm.id);
  // Plain prose looks nothing up: no context to build (renderMessage would take the same shortcut).
  const plain = renderPlainText(content, linkifiers);
  if (plain) return plain;
  let realmEmoji: RealmEmoji[] | undefined;
  let users: User[] | undefined;
  let linkable: Stream[] | undefined;
  let userGroups: StoredUserGroup[] | undefined;
  for (;;) {
    const missed = { users: false, channels: false, userGroups: false, realmEmoji: false };
    const full = renderContextFor(realm, users ?? [], linkable ?? [], new Date(nowMs), realmEmoji ?? [], linkifiers, userGroups ?? []);
    const miss = (directory: keyof typeof missed) => {
      missed[directory] = true;
      return null;
    };
    const context: RenderContext = {
      ...full,
      userByName: users ? full.userByName : () => miss('users'),
      userById: users ? full.userById : () => miss('users'),
      channelByName: linkable ? full.channelByName : () => miss('channels'),
      groupByName: userGroups ? full.groupByName : () => miss('userGroups'),
      emojiByName: realmEmoji ? full.emojiByName : () => miss('realmEmoji'),
    };
    const rendered = renderMessage(content, context);
    if (!missed.users && !missed.channels && !missed.userGroups && !missed.realmEmoji) return rendered;
    if (missed.realmEmoji) realmEmoji = await tx.realmEmoji.list(realm.id);
    if (missed.users) users = await tx.users.list(realm.id);
    if (missed.channels) linkable = await linkableChannels(tx, realm, sender);
    if (missed.userGroups) userGroups = await tx.userGroups.list(realm.id);
  }
}

/** The channels `sender` may link to: unarchived ones whose content they may read. */
async function linkableChannels(tx: Tx, realm: Realm, sender: User): Promise<Stream[]> {
  const streams = await tx.streams.list(realm.id);
  const subscriptions = await tx.subscriptions.forUser(realm.id, sender.id);
  const subscribed = new Set(subscriptions.filter((s) => s.active).map((s) => s.streamId));
  return streams.filter((s) => !s.isArchived && hasContentAccess(sender, s, subscribed.has(s.id)));
}
