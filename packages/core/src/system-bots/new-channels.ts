/**
 * The announcement of new channels (POST /users/me/subscriptions with announce=true), from
 * send_messages_for_new_subscribers: the Notification Bot posts to the realm's new channel
 * announcements channel, in the topic "new channels". Private channels are left out, so that
 * their names reach nobody outside them.
 */
import { ok, type Result } from 'neverthrow';
import type { Ctx } from '../context.js';
import type { ApiError } from '../errors.js';
import { realmSetting } from '../settings/realm-settings.js';
import type { Realm, Stream, Tx, User } from '../storage/types.js';
import { sendNotificationBotMessage } from './send.js';
import { channelLink, silentMention } from './syntax.js';

export const NEW_CHANNELS_TOPIC = 'new channels';

/** Announces `created` (by `creator`) when the realm has an announcements channel; the creator's copy starts read. */
export async function announceNewChannels(ctx: Ctx, tx: Tx, realm: Realm, creator: User, created: readonly Stream[]): Promise<Result<void, ApiError>> {
  const announced = created.filter((s) => !s.inviteOnly);
  const channelId = realmSetting(realm, 'new_stream_announcements_stream_id');
  if (announced.length === 0 || channelId < 0) return ok(undefined);
  const channel = await tx.streams.byId(realm.id, channelId);
  if (!channel || channel.isArchived) return ok(undefined);
  const links = announced.map((s) => channelLink(s.name)).join(', ');
  const content =
    announced.length > 1
      ? `${silentMention(creator)} created the following channels: ${links}.`
      : `${silentMention(creator)} created a new channel ${links}.`;
  const sent = await sendNotificationBotMessage(ctx, tx, realm, { to: { channelId, topic: NEW_CHANNELS_TOPIC }, content }, { readBy: [creator.id] });
  return sent.map(() => undefined);
}
