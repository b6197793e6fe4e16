/**
 * Notifications for an edited message (the reference's process_message_update_event and
 * maybe_enqueue_notifications_for_message_update): a content edit of a channel message that
 * newly mentions someone notifies them, as a send would; nobody else hears of an edit.
 */
import type { Ctx } from '../context.js';
import type { Realm, Tx } from '../storage/types.js';
import { inBackground } from './background.js';
import { notifyRecipients, type SentForPush } from './dispatch.js';

/** What the edit path knows once it has the new content's flags. */
export interface EditedForPush {
  realm: Realm;
  messageId: number;
  editorId: number;
  /** Each copy's flags before and (content flags) after the edit. */
  priorFlags: ReadonlyMap<number, number>;
  flagsByUser: ReadonlyMap<number, number>;
  mentionedUserIds: ReadonlySet<number>;
  mentionedGroups: SentForPush['mentionedGroups'];
}

/** The edit path's one call: after commit, notifies whoever the new content newly mentions. */
export function schedulePushForEdit(ctx: Ctx, tx: Tx, edited: EditedForPush): void {
  const notifier = ctx.pushNotifier;
  if (!notifier) return;
  tx.afterCommit(() =>
    inBackground(ctx, async () => {
      // The message as committed (the same edit may have moved it), read after the edit.
      const found = await ctx.storage.read(async (tx) => {
        const [message] = await tx.messages.byIds(edited.realm.id, [edited.messageId]);
        if (message?.type !== 'stream') return undefined;
        const sender = await tx.users.byId(edited.realm.id, message.senderId);
        const stream = await tx.streams.byId(edited.realm.id, message.streamId!);
        const policies = new Map((await tx.userTopics.forTopic(edited.realm.id, message.streamId!, message.topic)).map((r) => [r.userId, r.visibilityPolicy as number]));
        return sender && stream ? { message, sender, stream, policies } : undefined;
      });
      // Direct messages were notified when sent; an edit adds nothing (the reference).
      if (!found) return;
      const { message, sender, stream, policies } = found;
      const sent: SentForPush = { ...edited, message, sender, stream, participants: [] };
      await notifyRecipients(ctx, notifier, sent, policies, { actingUserId: edited.editorId, priorFlags: edited.priorFlags });
    }),
  );
}
