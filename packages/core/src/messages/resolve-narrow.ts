/**
 * Turns canonical narrow terms into storage conditions: channel names and user emails become
 * IDs, `is:`/`has:` operands become flags and columns. Unknown names are BAD_NARROW, as in the
 * reference, so a client learns its narrow is wrong rather than reading an empty history.
 */
import { err, ok, type Result } from 'neverthrow';
import type { ApiError } from '../errors.js';
import { apiEmail } from '../format/user.js';
import { extend } from '../objects.js';
import { FLAG_BITS, type MessageCondition, type Realm, type Stream, type Tx, type User } from '../storage/types.js';
import { badNarrow, type NarrowTerm } from './narrow.js';
import { dmKeyOf, EMPTY_TOPIC_DISPLAY_NAME } from './normalize.js';

export interface NarrowContext {
  tx: Tx;
  realm: Realm;
  viewer: User;
  /** Channels the viewer may see exist (names resolve only to these). */
  visibleStreams: readonly Stream[];
  /** Public channels whose history anyone in the realm may read (for `channels:public`). */
  publicStreamIds: readonly number[];
}

const MENTION_MASK = FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned;

export async function resolveNarrow(terms: readonly NarrowTerm[], context: NarrowContext): Promise<Result<MessageCondition[], ApiError>> {
  const conditions: MessageCondition[] = [];
  for (const term of terms) {
    const resolved = await resolveTerm(term, context);
    if (resolved.isErr()) return err(resolved.error);
    for (const condition of resolved.value) conditions.push(extend(condition, { negated: term.negated }) as MessageCondition);
  }
  return ok(conditions);
}

type Unnegated = { [K in MessageCondition['kind']]: Omit<Extract<MessageCondition, { kind: K }>, 'negated'> }[MessageCondition['kind']];

async function resolveTerm(term: NarrowTerm, context: NarrowContext): Promise<Result<Unnegated[], ApiError>> {
  const { operand } = term;
  switch (term.operator) {
    case 'channel': {
      const stream = findStream(context, operand);
      return stream ? ok([{ kind: 'stream', streamId: stream.id }]) : err(badNarrow('unknown channel'));
    }
    case 'channels':
      if (operand !== 'public' && operand !== 'web-public') return err(badNarrow("unknown 'channels' operand"));
      return ok([{ kind: 'streams', streamIds: context.publicStreamIds }]);
    case 'topic': {
      const topic = String(operand).trim();
      return ok([{ kind: 'topic', topic: topic === EMPTY_TOPIC_DISPLAY_NAME ? '' : topic }]);
    }
    case 'sender': {
      const user = await findUser(context, operand);
      return user ? ok([{ kind: 'sender', userId: user.id }]) : err(badNarrow('unknown user'));
    }
    case 'dm': {
      const ids: number[] = [context.viewer.id];
      const parts = Array.isArray(operand) ? operand : String(operand).split(',').map((s) => s.trim()).filter(Boolean);
      for (const part of parts) {
        const user = await findUser(context, part);
        if (!user) return err(badNarrow('unknown user'));
        ids.push(user.id);
      }
      return ok([{ kind: 'dm', dmKey: dmKeyOf(ids) }]);
    }
    case 'dm-including': {
      const user = await findUser(context, Array.isArray(operand) ? operand[0]! : operand);
      return user ? ok([{ kind: 'dm-including', userId: user.id }]) : err(badNarrow('unknown user'));
    }
    case 'is':
      switch (operand) {
        case 'dm':
        case 'private':
          return ok([{ kind: 'is-dm' }]);
        case 'starred':
          return ok([{ kind: 'flag', mask: FLAG_BITS.starred, set: true }]);
        case 'mentioned':
          return ok([{ kind: 'flag', mask: MENTION_MASK, set: true }]);
        case 'alerted':
          return ok([{ kind: 'flag', mask: FLAG_BITS.has_alert_word, set: true }]);
        case 'unread':
          return ok([{ kind: 'flag', mask: FLAG_BITS.read, set: false }]);
        case 'resolved':
          return ok([{ kind: 'resolved' }]);
        case 'followed':
          return ok([{ kind: 'followed' }]);
        case 'muted':
          return ok([{ kind: 'muted' }]);
        default:
          return err(badNarrow("unknown 'is' operand"));
      }
    case 'has':
      if (operand === 'link' || operand === 'image' || operand === 'attachment' || operand === 'reaction') {
        return ok([{ kind: 'has', what: operand }]);
      }
      return err(badNarrow("unknown 'has' operand"));
    case 'search':
      return ok([{ kind: 'search', text: String(operand) }]);
    case 'id': {
      const id = Number(operand);
      return Number.isSafeInteger(id) ? ok([{ kind: 'id', id }]) : err(badNarrow('invalid message ID'));
    }
    case 'near':
      // Clients use it to pick the anchor; it filters nothing.
      return ok([]);
    case 'with':
      return resolveWith(operand, context);
    case 'mentions': {
      // User IDs only (FL 446): the operator is new, so it has no legacy email form.
      const valid = typeof operand === 'number' || /^[0-9]+$/.test(String(operand));
      const user = valid ? await context.tx.users.byId(context.realm.id, Number(operand)) : undefined;
      return user ? ok([{ kind: 'mentions', userId: user.id }]) : err(badNarrow('unknown user'));
    }
    default:
      return err(badNarrow('unknown operator'));
  }
}

function findStream(context: NarrowContext, operand: NarrowTerm['operand']): Stream | undefined {
  if (typeof operand === 'number' || /^[0-9]+$/.test(String(operand))) {
    return context.visibleStreams.find((s) => s.id === Number(operand));
  }
  const name = String(operand).toLowerCase();
  return context.visibleStreams.find((s) => s.name.toLowerCase() === name);
}

async function findUser(context: NarrowContext, operand: NarrowTerm['operand']): Promise<User | undefined> {
  const { tx, realm } = context;
  if (typeof operand === 'number' || /^[0-9]+$/.test(String(operand))) return tx.users.byId(realm.id, Number(operand));
  const email = String(operand).trim();
  const byDelivery = await tx.users.byDeliveryEmail(realm.id, email);
  if (byDelivery) return byDelivery;
  const dummy = /^user([0-9]+)@/i.exec(email);
  const byId = dummy ? await tx.users.byId(realm.id, Number(dummy[1])) : undefined;
  return byId && apiEmail(realm, byId).toLowerCase() === email.toLowerCase() ? byId : undefined;
}

/** `with:<message id>`: the conversation that message is in now; dropped when it is not accessible. */
async function resolveWith(operand: NarrowTerm['operand'], context: NarrowContext): Promise<Result<Unnegated[], ApiError>> {
  const message = await context.tx.messages.byId(context.realm.id, Number(operand));
  if (!message) return ok([]);
  if (message.type === 'private') return ok([{ kind: 'dm', dmKey: message.dmKey! }]);
  if (!context.visibleStreams.some((s) => s.id === message.streamId)) return ok([]);
  return ok([
    { kind: 'stream', streamId: message.streamId! },
    { kind: 'topic', topic: message.topic },
  ]);
}
