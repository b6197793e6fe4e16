/** What a bot's settings change about the event queues it registers. */
import type { QueueOptions } from '../events/types.js';
import type { Tx, User } from '../storage/types.js';
import { botProfile } from './profile.js';

/**
 * A bot's defaults for what its register request left out (the reference's
 * _default_all_public_streams and _default_narrow): all_public_streams not sent follows
 * default_all_public_streams, and an empty narrow becomes its default_events_register_stream.
 */
export async function botQueueDefaults(
  tx: Tx,
  bot: User,
  allPublicStreams: boolean | undefined,
  narrow: QueueOptions['narrow'],
): Promise<Pick<QueueOptions, 'allPublicStreams' | 'narrow'>> {
  const profile = await botProfile(tx, bot.realmId, bot.id);
  let defaultNarrow = narrow;
  if (narrow.length === 0 && profile.defaultEventsRegisterStreamId !== null) {
    const stream = await tx.streams.byId(bot.realmId, profile.defaultEventsRegisterStreamId);
    if (stream) defaultNarrow = [['stream', stream.name]];
  }
  return { allPublicStreams: allPublicStreams ?? profile.defaultAllPublicStreams, narrow: defaultNarrow };
}
