import { err, ok, type Result } from 'neverthrow';
import { hasContentAccess } from '../access/channel-rules.js';
import type { Ctx } from '../context.js';
import { type ApiError, badRequest, missingArgument } from '../errors.js';
import { formatMessage } from '../messages/format.js';
import { canonicalNarrow } from '../messages/narrow.js';
import { resolveNarrow } from '../messages/resolve-narrow.js';
import { type Actor, userOperation } from '../operation.js';
import { GetMessageParams, GetMessagesParams, MatchesNarrowParams } from '../schemas/messages.js';
import { FLAG_BITS, type Message, type MessageCondition, type MessageScope, type Realm, type Stream, type Tx, type User } from '../storage/types.js';

const MAX_WINDOW = 5000;
/** Larger than any message ID: the anchor "newest". */
const NEWEST = Number.MAX_SAFE_INTEGER;

/** What a user can read: their own copies, plus the whole history of channels they may read. */
export interface Readable {
  scope: MessageScope;
  visibleStreams: Stream[];
  publicStreamIds: number[];
  allStreams: Stream[];
}

export async function readableBy(tx: Tx, user: User): Promise<Readable> {
  const allStreams = await tx.streams.list(user.realmId);
  const subscribed = new Set((await tx.subscriptions.forUser(user.realmId, user.id)).filter((s) => s.active).map((s) => s.streamId));
  const visibleStreams = allStreams.filter((s) => hasContentAccess(user, s, subscribed.has(s.id)));
  // Shared history: public channels, or subscribed ones whose history is public to subscribers.
  const shared = visibleStreams.filter((s) => (!s.inviteOnly && user.role !== 600) || (subscribed.has(s.id) && s.historyPublicToSubscribers) || s.isWebPublic);
  return {
    scope: { userId: user.id, sharedHistoryStreamIds: shared.map((s) => s.id) },
    visibleStreams,
    publicStreamIds: allStreams.filter((s) => !s.inviteOnly && !s.isArchived).map((s) => s.id),
    allStreams,
  };
}

/** Formats messages for a viewer, with their flags and each message's reactions. */
export async function formatForViewer(
  tx: Tx,
  realm: Realm,
  viewer: User,
  messages: readonly Message[],
  streams: readonly Stream[],
  options: { applyMarkdown: boolean; clientGravatar: boolean; emptyTopicName: boolean },
): Promise<Record<string, unknown>[]> {
  const ids = messages.map((m) => m.id);
  const flags = await tx.messages.flagsOf(viewer.id, ids);
  const reactions = await tx.reactions.forMessages(ids);
  const users = new Map((await tx.users.list(realm.id)).map((u) => [u.id, u]));
  const dmConversationIds = new Map<string, number>();
  for (const m of messages) {
    if (m.dmKey && !dmConversationIds.has(m.dmKey)) dmConversationIds.set(m.dmKey, await tx.messages.dmConversationId(realm.id, m.dmKey));
  }
  const view = {
    realm,
    users,
    streamNames: new Map(streams.map((s) => [s.id, s.name])),
    dmConversationIds,
    topicLinks: () => [],
    ...options,
  };
  return messages.map((m) =>
    formatMessage(
      m,
      view,
      reactions.filter((r) => r.messageId === m.id),
      // A message read through shared channel history without a copy shows as read, historical.
      flags.get(m.id) ?? FLAG_BITS.read | FLAG_BITS.historical,
    ),
  );
}

type GetMessagesInput = (typeof GetMessagesParams)['TYPE'];

/** GET /messages (SHAPES.md 6.1). */
export const getMessages = userOperation(GetMessagesParams, async (ctx, actor: Actor, params) => {
  if (params.message_ids) {
    const clashing = (['anchor', 'num_before', 'num_after', 'use_first_unread_anchor'] as const).filter((name) => params[name] !== undefined);
    if (clashing.length > 0) {
      const names = ['message_ids', ...clashing].join(', ');
      return err(badRequest(`Unsupported parameter combination: ${names}`, { parameters: names }));
    }
  } else {
    if (params.num_before === undefined) return err(missingArgument('num_before'));
    if (params.num_after === undefined) return err(missingArgument('num_after'));
    if (params.num_before + params.num_after > MAX_WINDOW) return err(badRequest(`Too many messages requested (maximum ${MAX_WINDOW}).`));
  }
  const terms = canonicalNarrow(params.narrow as never);
  if (terms.isErr()) return err(terms.error);

  return ctx.storage.read(async (tx) => {
    const readable = await readableBy(tx, actor.user);
    const conditions = await resolveNarrow(terms.value, {
      tx,
      realm: actor.realm,
      viewer: actor.user,
      visibleStreams: readable.visibleStreams,
      publicStreamIds: readable.publicStreamIds.filter((id) => readable.scope.sharedHistoryStreamIds.includes(id)),
    });
    if (conditions.isErr()) return err(conditions.error);
    const format = (messages: Message[]) =>
      formatForViewer(tx, actor.realm, actor.user, messages, readable.allStreams, {
        applyMarkdown: params.apply_markdown,
        clientGravatar: params.client_gravatar,
        emptyTopicName: params.allow_empty_topic_name,
      });

    if (params.message_ids) {
      const visible: number[] = [];
      for (const id of params.message_ids) if (await tx.messages.matches(readable.scope, conditions.value, id)) visible.push(id);
      const messages = await tx.messages.byIds(actor.realm.id, visible);
      return ok({ messages: await format(messages), history_limited: false });
    }

    const anchor = await resolveAnchor(tx, actor, params, readable.scope, conditions.value);
    if (anchor.isErr()) return err(anchor.error);
    const window = await tx.messages.window(readable.scope, conditions.value, {
      anchor: anchor.value,
      includeAnchor: params.include_anchor,
      numBefore: params.num_before!,
      numAfter: params.num_after!,
    });
    const messages = await tx.messages.byIds(actor.realm.id, window.ids);
    return ok({
      anchor: anchor.value,
      found_anchor: window.foundAnchor,
      found_oldest: window.foundOldest,
      found_newest: window.foundNewest,
      history_limited: false,
      messages: await format(messages),
    });
  });
});

async function resolveAnchor(
  tx: Tx,
  actor: Actor,
  params: GetMessagesInput,
  scope: MessageScope,
  conditions: readonly MessageCondition[],
): Promise<Result<number, ApiError>> {
  const anchor = params.use_first_unread_anchor ? 'first_unread' : (params.anchor ?? 'newest');
  if (anchor === 'newest') return ok(NEWEST);
  if (anchor === 'oldest') return ok(0);
  if (anchor === 'first_unread') {
    const unread = await tx.messages.window(scope, [...conditions, { kind: 'flag', mask: FLAG_BITS.read, set: false, negated: false }], {
      anchor: 0,
      includeAnchor: false,
      numBefore: 0,
      numAfter: 1,
    });
    return ok(unread.ids[0] ?? NEWEST);
  }
  if (anchor === 'date') {
    if (params.anchor_date === undefined) return err(missingArgument('anchor_date'));
    const at = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(params.anchor_date) ? `${params.anchor_date}T00:00:00Z` : params.anchor_date);
    if (Number.isNaN(at)) return err(badRequest('Invalid anchor_date'));
    const id = await firstMessageAtOrAfter(tx, actor, scope, conditions, Math.floor(at / 1000));
    return ok(id ?? NEWEST);
  }
  if (!/^-?[0-9]+$/.test(anchor)) return err(badRequest('Invalid anchor'));
  return ok(Math.max(0, Number(anchor)));
}

/** The first matching message sent at or after `seconds` (FL 445 anchor=date). */
async function firstMessageAtOrAfter(tx: Tx, actor: Actor, scope: MessageScope, conditions: readonly MessageCondition[], seconds: number): Promise<number | null> {
  // Message IDs grow with time, so the first match at or after the date is found by walking forward.
  let anchor = 0;
  for (;;) {
    const page = await tx.messages.window(scope, conditions, { anchor, includeAnchor: false, numBefore: 0, numAfter: 500 });
    const messages = await tx.messages.byIds(actor.realm.id, page.ids);
    const hit = messages.find((m) => m.dateSent >= seconds);
    if (hit) return hit.id;
    if (page.foundNewest || page.ids.length === 0) return null;
    anchor = page.ids[page.ids.length - 1]!;
  }
}

/** GET /messages/{message_id}: one message the user may read, with `raw_content` (deprecated). */
export const getMessage = userOperation(GetMessageParams, async (ctx, actor: Actor, params) =>
  ctx.storage.read(async (tx) => {
    const readable = await readableBy(tx, actor.user);
    const visible = await tx.messages.matches(readable.scope, [], params.message_id);
    const message = visible ? await tx.messages.byId(actor.realm.id, params.message_id) : undefined;
    if (!message) return err(badRequest('Invalid message(s)'));
    const [record] = await formatForViewer(tx, actor.realm, actor.user, [message], readable.allStreams, {
      applyMarkdown: params.apply_markdown,
      clientGravatar: false,
      emptyTopicName: params.allow_empty_topic_name,
    });
    return ok({ raw_content: message.content, message: record });
  }),
);

/** POST /messages/matches_narrow: which of the messages match the narrow, with search highlights. */
export const getMatchesNarrow = userOperation(MatchesNarrowParams, async (ctx, actor: Actor, params) => {
  const terms = canonicalNarrow(params.narrow as never);
  if (terms.isErr()) return err(terms.error);
  return ctx.storage.read(async (tx) => {
    const readable = await readableBy(tx, actor.user);
    const conditions = await resolveNarrow(terms.value, {
      tx,
      realm: actor.realm,
      viewer: actor.user,
      visibleStreams: readable.visibleStreams,
      publicStreamIds: readable.publicStreamIds,
    });
    if (conditions.isErr()) return err(conditions.error);
    const messages: Record<string, { match_content: string; match_subject: string }> = {};
    for (const id of params.msg_ids) {
      if (!(await tx.messages.matches(readable.scope, conditions.value, id))) continue;
      const message = (await tx.messages.byId(actor.realm.id, id))!;
      messages[String(id)] = { match_content: message.renderedContent, match_subject: message.topic };
    }
    return ok({ messages });
  });
});

