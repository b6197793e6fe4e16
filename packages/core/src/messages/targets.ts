/** Where a message goes: a channel and topic, or a direct conversation, checked for the sender. */
import { err, ok, type Result } from 'neverthrow';
import { hasContentAccess, canPostToChannel } from '../access/channel-rules.js';
import { inaccessibleUsers } from '../access/user-access.js';
import type { Ctx } from '../context.js';
import { ApiError, badRequest } from '../errors.js';
import { apiEmail } from '../format/user.js';
import type { Realm, Stream, Subscription, Tx, User } from '../storage/types.js';
import { channelIndicator, directRecipients } from './addressee.js';
import { normalizeNewTopic } from './normalize.js';
import { checkTopicCreation } from './topic-creation.js';
import { checkTopicsPolicy } from './topics-policy.js';

export type Target =
  | {
      kind: 'stream';
      stream: Stream;
      topic: string;
      recipientIds: number[];
      /** The sender's subscription to the channel as the checks read it (null: none); absent when not read. */
      senderSubscription?: Subscription | null;
    }
  | { kind: 'private'; participants: User[] };

/**
 * The channel and topic of a channel message. A channel the sender may not read answers exactly
 * as a missing one, so that private channels stay invisible. `realm` is the sender's, as read in
 * this transaction.
 */
export async function channelTarget(ctx: Ctx, tx: Tx, realm: Realm, sender: User, to: string, rawTopic: string | undefined): Promise<Result<Target, ApiError>> {
  const indicator = channelIndicator(to);
  if (indicator.isErr()) return err(indicator.error);
  let stream: Stream | undefined;
  let missing: ApiError;
  if (typeof indicator.value === 'number') {
    const id = indicator.value;
    stream = await tx.streams.byId(sender.realmId, id);
    missing = new ApiError('STREAM_DOES_NOT_EXIST', `Channel with ID '${id}' does not exist`, { stream_id: id });
  } else {
    const name = indicator.value.trim();
    if (name === '') return err(badRequest("Channel name can't be empty."));
    stream = await tx.streams.byName(sender.realmId, name);
    missing = new ApiError('STREAM_DOES_NOT_EXIST', `Channel '${name}' does not exist`, { stream: name });
  }
  // The subscribers are read with the sender's subscription (one round trip on a networked
  // database), before the checks that may refuse the send: reading them in vain costs nothing visible.
  const [subscription, recipientIds] = stream
    ? await Promise.all([tx.subscriptions.get(sender.realmId, sender.id, stream.id), tx.subscriptions.activeSubscriberIds(sender.realmId, stream.id)])
    : [undefined, []];
  if (!stream || !hasContentAccess(sender, stream, subscription?.active === true)) return err(missing);
  if (stream.isArchived) return err(badRequest(`Not authorized to send to channel '${stream.name}'`));
  if (!canPostToChannel(sender, stream)) return err(badRequest('You do not have permission to post in this channel.'));
  if (rawTopic === undefined) return err(badRequest('Missing topic'));
  const topic = normalizeNewTopic(rawTopic, ctx.config);
  if (topic.isErr()) return err(topic.error);
  const creation = await checkTopicCreation(tx, sender, stream, topic.value);
  if (creation.isErr()) return err(creation.error);
  const allowed = await checkTopicsPolicy(tx, stream, topic.value, true, realm);
  if (allowed.isErr()) return err(allowed.error);
  return ok({ kind: 'stream', stream, topic: topic.value, recipientIds, senderSubscription: subscription ?? null });
}

/** The users a direct message's `to` may name: the named IDs only, or every user when it names emails. */
async function directCandidates(tx: Tx, realm: Realm, to: string): Promise<User[]> {
  const wanted = directRecipients(to);
  if (wanted.isOk() && 'ids' in wanted.value) return tx.users.list(realm.id, wanted.value.ids);
  return tx.users.list(realm.id);
}

/**
 * The participants of a direct message, the sender included. Emails are matched against the
 * email each user shows through the API, so a hidden real address cannot be probed. A guest
 * restricted by can_access_all_users_group may name only users they may access
 * (check_sender_can_access_recipients), checked before deactivation as in the reference.
 */
export async function directTarget(tx: Tx, realm: Realm, sender: User, to: string): Promise<Result<Target, ApiError>> {
  const recipients = directRecipients(to);
  if (recipients.isErr()) return err(recipients.error);
  const wanted = recipients.value;
  if (('ids' in wanted ? wanted.ids : wanted.emails).length === 0) return err(badRequest('Message must have recipients'));
  const users = await directCandidates(tx, realm, to);
  const found: User[] = [];
  if ('ids' in wanted) {
    for (const id of wanted.ids) {
      const user = users.find((u) => u.id === id);
      if (!user) return err(badRequest(`Invalid user ID ${id}`));
      found.push(user);
    }
  } else {
    for (const email of wanted.emails) {
      const user = users.find((u) => apiEmail(realm, u).toLowerCase() === email.toLowerCase());
      if (!user) return err(badRequest(`Invalid email '${email}'`));
      found.push(user);
    }
  }
  if ((await inaccessibleUsers(tx, realm, sender, found)).length > 0) {
    return err(badRequest('You do not have permission to access some of the recipients.'));
  }
  const participants = new Map<number, User>([[sender.id, sender]]);
  for (const user of found) {
    if (!user.isActive) return err(badRequest(`'${apiEmail(realm, user)}' is no longer using Zulip.`));
    participants.set(user.id, user);
  }
  return ok({ kind: 'private', participants: [...participants.values()].sort((a, b) => a.id - b.id) });
}
