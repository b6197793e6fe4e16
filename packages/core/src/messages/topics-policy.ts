/**
 * A channel's topics policy (FL 392, 404) as sending, editing and moving enforce it. `inherit`
 * follows the realm's topics_policy; `empty_topic_only` channels have no topics but the empty
 * one ("general chat").
 */
import { err, ok, type Result } from 'neverthrow';
import { type ApiError, badRequest } from '../errors.js';
import { realmSetting } from '../settings/realm-settings.js';
import type { Realm, Stream, TopicsPolicy, Tx } from '../storage/types.js';

/**
 * The policy that applies to the channel: its own, or the realm's when it inherits. `known` is
 * the channel's realm as the caller read it in this transaction, if it has it (a send reads it
 * with the actor): it saves reading it again.
 */
export async function effectiveTopicsPolicy(tx: Tx, stream: Stream, known?: Realm): Promise<Exclude<TopicsPolicy, 'inherit'>> {
  if (stream.topicsPolicy !== 'inherit') return stream.topicsPolicy;
  const realm = known?.id === stream.realmId ? known : await tx.realms.byId(stream.realmId);
  return (realm ? realmSetting(realm, 'topics_policy') : 'allow_empty_topic') as Exclude<TopicsPolicy, 'inherit'>;
}

/**
 * Whether a message may be in `topic` of the channel. `intoTopic` says whether the request puts
 * it there (a send, a topic change or a move); the empty topic of a `disable_empty_topic` channel
 * only refuses those, while an `empty_topic_only` channel refuses any other topic for any send or
 * edit, as the reference's check_update_message does.
 */
export async function checkTopicsPolicy(tx: Tx, stream: Stream, topic: string, intoTopic: boolean, realm?: Realm): Promise<Result<void, ApiError>> {
  const policy = await effectiveTopicsPolicy(tx, stream, realm);
  if (policy === 'disable_empty_topic' && topic === '' && intoTopic) {
    return err(badRequest('Sending messages to the general chat is not allowed in this channel.'));
  }
  if (policy === 'empty_topic_only' && topic !== '') return err(badRequest('Only the general chat topic is allowed in this channel.'));
  return ok(undefined);
}
