import { err, ok, type Result } from 'neverthrow';
import { realmLinkifiers, topicLinksWith } from '../linkifiers/for-render.js';
import { type ApiError, badRequest, incompatibleParameters, missingArgument } from '../errors.js';
import { resolveAnchor } from '../messages/anchor.js';
import { accessMessage } from '../messages/access.js';
import { editHistoryPolicy, editSnapshots } from '../messages/edit-history.js';
import { type ApiMessage, formatMessage } from '../messages/format.js';
import { highlightHtml, highlightTopic, searchWords } from '../messages/highlight.js';
import { topicForClient } from '../messages/normalize.js';
import { canonicalNarrow, type NarrowTerm } from '../messages/narrow.js';
import { narrowContextFor, type Readable, readableBy } from '../messages/readable.js';
import { resolveNarrow } from '../messages/resolve-narrow.js';
import { type MessageRows, pageRows, withReactionsAndSubmessages } from '../messages/page-rows.js';
import { pageUsers } from '../messages/page-users.js';
import { type Actor, userOperation } from '../operation.js';
import { GetMessageHistoryParams, GetMessageParams, GetMessagesParams, MatchesNarrowParams } from '../schemas/messages.js';
import { FLAG_BITS, type Message, type MessageCondition, type Realm, type Tx, type User } from '../storage/types.js';

/** Moved to messages/readable.ts, shared with the flag endpoints; re-exported for callers of this module. */
export { readableBy, type Readable } from '../messages/readable.js';

const MAX_WINDOW = 5000;

/** Formats messages for a viewer, with their flags and each message's reactions and submessages. */
export async function formatForViewer(
  tx: Tx,
  realm: Realm,
  viewer: User,
  messages: readonly Message[],
  streamNames: ReadonlyMap<number, string>,
  options: FormatOptions,
): Promise<ApiMessage[]> {
  const rows = await withReactionsAndSubmessages(tx, realm.id, messages);
  const flags = await tx.messages.flagsOf(viewer.id, messages.map((message) => message.id));
  return formatRowsForViewer(tx, realm, rows, flags, streamNames, options);
}

interface FormatOptions {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  emptyTopicName: boolean;
}

/**
 * `formatForViewer` of messages whose reactions and submessages are read already (messages/page-rows.ts),
 * with the viewer's flags on those they hold a copy of (MessageStore.flagsOf, or a window read `withFlags`).
 */
async function formatRowsForViewer(
  tx: Tx,
  realm: Realm,
  rows: readonly MessageRows[],
  flags: ReadonlyMap<number, number>,
  streamNames: ReadonlyMap<number, string>,
  options: FormatOptions,
  /** The storage whose kept users may serve (read transactions only: messages/page-users.ts); none reads them. */
  storage?: object,
): Promise<ApiMessage[]> {
  // Only the people the messages name: senders and direct participants, not the whole realm.
  const people = new Set<number>();
  const dmKeys = new Set<string>();
  for (const { message } of rows) {
    people.add(message.senderId);
    if (message.dmKey) {
      dmKeys.add(message.dmKey);
      for (const id of message.dmKey.split(',')) people.add(Number(id));
    }
  }
  const users = storage ? await pageUsers(tx, storage, realm.id, [...people]) : new Map((await tx.users.list(realm.id, [...people])).map((u) => [u.id, u]));
  // One lookup for the page's direct conversations, not one per conversation.
  const dmConversationIds = await tx.messages.dmConversationIds(realm.id, [...dmKeys]);
  const view = {
    realm,
    users,
    streamNames,
    dmConversationIds,
    topicLinks: topicLinksWith(await realmLinkifiers(tx, realm.id)),
    ...options,
  };
  return rows.map(({ message, reactions, submessages }) =>
    formatMessage(
      message,
      view,
      reactions,
      submessages,
      // A message read through shared channel history without a copy shows as read, historical.
      flags.get(message.id) ?? FLAG_BITS.read | FLAG_BITS.historical,
    ),
  );
}

/** GET /messages (SHAPES.md 6.1). */
export const getMessages = userOperation(GetMessagesParams, async (ctx, actor: Actor, params) => {
  if (params.message_ids) {
    const clashing = (['anchor', 'include_anchor', 'num_before', 'num_after', 'use_first_unread_anchor'] as const).filter((name) => params[name] !== undefined);
    if (clashing.length > 0) return err(incompatibleParameters(['message_ids', ...clashing]));
  } else {
    if (params.num_before === undefined) return err(missingArgument('num_before'));
    if (params.num_after === undefined) return err(missingArgument('num_after'));
    if (params.num_before + params.num_after > MAX_WINDOW) return err(badRequest(`Too many messages requested (maximum ${MAX_WINDOW}).`));
  }
  return ctx.storage.read(async (tx) => {
    const narrowed = await narrowFor(tx, actor, params.narrow);
    if (narrowed.isErr()) return err(narrowed.error);
    const { readable, conditions, terms } = narrowed.value;
    const words = searchWords(terms);
    const format = async (rows: readonly MessageRows[], flags: ReadonlyMap<number, number>): Promise<ApiMessage[]> => {
      const records = await formatRowsForViewer(tx, actor.realm, rows, flags, readable.streamNames, {
        applyMarkdown: params.apply_markdown,
        clientGravatar: params.client_gravatar,
        emptyTopicName: params.allow_empty_topic_name,
      }, ctx.storage);
      // A search narrow adds the highlights to each message (SHAPES.md 5.1).
      if (words.length === 0) return records;
      return records.map((record, i) => ({ ...record, ...highlights(rows[i]!.message, words, params.allow_empty_topic_name) }));
    };

    if (params.message_ids) {
      const messages = await visibleMatches(tx, actor, readable, conditions, params.message_ids);
      const flags = await tx.messages.flagsOf(actor.user.id, messages.map((message) => message.id));
      return ok({ messages: await format(await withReactionsAndSubmessages(tx, actor.realm.id, messages), flags), history_limited: false });
    }

    const anchor = await resolveAnchor(tx, actor.realm.id, params, readable.scope, conditions);
    if (anchor.isErr()) return err(anchor.error);
    const window = await tx.messages.window(readable.scope, conditions, {
      anchor: anchor.value,
      includeAnchor: params.include_anchor ?? true,
      numBefore: params.num_before!,
      numAfter: params.num_after!,
      // The viewer's flags and the format stamps come with the window's walk: no statements of their own.
      withFlags: true,
      withStamps: true,
    });
    // The page's rows as kept under their format stamps, read only for messages not kept or changed.
    const rows = await pageRows(tx, ctx.storage, actor.realm.id, window.ids, window.stamps);
    return ok({
      anchor: anchor.value,
      found_anchor: window.foundAnchor,
      found_oldest: window.foundOldest,
      found_newest: window.foundNewest,
      history_limited: false,
      messages: await format(rows, window.flags!),
    });
  });
});

/** GET /messages/{message_id}: one message the user may read, with `raw_content` (deprecated). */
export const getMessage = userOperation(GetMessageParams, async (ctx, actor: Actor, params) =>
  ctx.storage.read(async (tx) => {
    const readable = await readableBy(tx, actor.user);
    const access = await accessMessage(tx, actor.user, params.message_id);
    if (access.isErr()) return err(access.error);
    const message = access.value;
    const [record] = await formatForViewer(tx, actor.realm, actor.user, [message], readable.streamNames, {
      applyMarkdown: params.apply_markdown,
      clientGravatar: false,
      emptyTopicName: params.allow_empty_topic_name,
    });
    // One message in, one record out.
    return ok({ raw_content: message.content, message: record! });
  }),
);

/**
 * GET /messages/{message_id}/history: snapshots of a message the user may read, oldest first,
 * as the realm's message_edit_history_visibility_policy allows (refused under `none`).
 */
export const getMessageHistory = userOperation(GetMessageHistoryParams, async (ctx, actor: Actor, params) => {
  const policy = editHistoryPolicy(actor.realm);
  if (policy === 'none') return err(badRequest('Message edit history is disabled in this organization'));
  return ctx.storage.read(async (tx) => {
    const access = await accessMessage(tx, actor.user, params.message_id);
    if (access.isErr()) return err(access.error);
    return ok({ message_history: editSnapshots(access.value, policy, params.allow_empty_topic_name) });
  });
});

/** GET (as the reference and its Python bindings send it) or POST /messages/matches_narrow: which of the messages match the narrow, with search highlights. */
export const getMatchesNarrow = userOperation(MatchesNarrowParams, async (ctx, actor: Actor, params) => {
  return ctx.storage.read(async (tx) => {
    const narrowed = await narrowFor(tx, actor, params.narrow);
    if (narrowed.isErr()) return err(narrowed.error);
    const { readable, conditions, terms } = narrowed.value;
    const words = searchWords(terms);
    const messages: Record<string, { match_content: string; match_subject: string }> = {};
    for (const message of await visibleMatches(tx, actor, readable, conditions, params.msg_ids)) {
      // Without a search the content as rendered and the topic HTML-escaped, as the reference answers.
      messages[String(message.id)] = { match_content: highlightHtml(message.renderedContent, words), match_subject: highlightTopic(message.topic, words) };
    }
    return ok({ messages });
  });
});

/** `match_content` and `match_subject` of a message found by a search narrow. */
function highlights(message: Message, words: readonly string[], emptyTopicName: boolean) {
  return {
    match_content: highlightHtml(message.renderedContent, words),
    match_subject: highlightTopic(message.type === 'stream' ? topicForClient(message.topic, emptyTopicName) : '', words),
  };
}

/** The narrow as sent, its canonical terms, the reader's scope, and the terms resolved against what they may see. */
async function narrowFor(
  tx: Tx,
  actor: Actor,
  narrow: unknown,
): Promise<Result<{ readable: Readable; conditions: MessageCondition[]; terms: NarrowTerm[] }, ApiError>> {
  const terms = canonicalNarrow(narrow as never);
  if (terms.isErr()) return err(terms.error);
  const readable = await readableBy(tx, actor.user);
  const conditions = await resolveNarrow(terms.value, narrowContextFor(tx, actor.realm, actor.user, readable));
  return conditions.map((resolved) => ({ readable, conditions: resolved, terms: terms.value }));
}

/**
 * The listed messages the reader may see and that match, ascending. Each message's own channel
 * is named so that its shared history counts, not only the reader's copies.
 */
async function visibleMatches(tx: Tx, actor: Actor, readable: Readable, conditions: readonly MessageCondition[], ids: readonly number[]): Promise<Message[]> {
  const visible: Message[] = [];
  for (const message of await tx.messages.byIds(actor.realm.id, ids)) {
    const channel = message.streamId === null ? [] : [{ kind: 'stream' as const, streamId: message.streamId, negated: false }];
    if (await tx.messages.matches(readable.scope, [...channel, ...conditions], message.id)) visible.push(message);
  }
  return visible;
}
