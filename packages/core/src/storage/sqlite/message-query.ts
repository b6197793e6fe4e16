import { directMentionMarkup, FLAG_BITS, type MessageCondition, type MessageScope } from '../message-types.js';
import { newSearchToken, SEARCH_STEP } from './search-budget.js';

/**
 * Compiles a scope and resolved narrow conditions to SQL over `message m` and the viewer's
 * copies `um`. Flag conditions are spelled exactly as the partial indexes of message-schema.ts
 * so that SQLite can use them.
 */
export interface CompiledQuery {
  from: string;
  where: string[];
  params: unknown[];
  /**
   * The message ID column to range over and order by. Over the viewer's copies it is
   * `um.message_id`: the same value as `m.id`, but SQLite only walks the (user_id, message_id)
   * key in order when the query names that column (a 100× difference on a large history).
   */
  id: string;
}

/** A message without a copy of the viewer's counts as read (and no other flag), as in the reference. */
const MISSING_COPY_FLAGS = 1;

/**
 * `copyFlags`: the caller selects the viewer's flags, `um.flags` (NULL where a message of a
 * shared channel has no copy of theirs), so the copies are joined even where no condition reads them.
 */
export function compileMessageQuery(scope: MessageScope, conditions: readonly MessageCondition[], copyFlags = false): CompiledQuery {
  const params: unknown[] = [];
  const where: string[] = [];
  const sharedStream = conditions.find(
    (c) => c.kind === 'stream' && !c.negated && scope.sharedHistoryStreamIds.includes(c.streamId),
  ) as { streamId: number } | undefined;
  const sharedStreams = conditions.some((c) => c.kind === 'streams' && !c.negated);

  // The viewer's copies are joined only where a condition or the caller reads their flags, and
  // messages only where a condition reads a message column: an unneeded join costs a lookup per row walked.
  const readsFlags = copyFlags || conditions.some((c) => c.kind === 'flag');
  const readsMessage = conditions.some((c) => c.kind !== 'flag');
  let from: string;
  let personal: boolean;
  if (sharedStream) {
    // A channel whose history the viewer may read: every message of it, with the viewer's flags.
    from = readsFlags ? 'message m LEFT JOIN user_message um ON um.user_id = ? AND um.message_id = m.id' : 'message m';
    if (readsFlags) params.push(scope.userId);
    where.push('m.stream_id = ?');
    params.push(sharedStream.streamId);
    personal = false;
  } else if (sharedStreams) {
    from = 'message m LEFT JOIN user_message um ON um.user_id = ? AND um.message_id = m.id';
    params.push(scope.userId);
    where.push(`(um.user_id IS NOT NULL OR m.stream_id IN (SELECT value FROM json_each(?)))`);
    params.push(JSON.stringify(scope.sharedHistoryStreamIds));
    personal = false;
  } else {
    // Every copy has its message (ON DELETE CASCADE), so flag-only narrows read the copies alone.
    from = readsMessage ? 'user_message um JOIN message m ON m.id = um.message_id' : 'user_message um';
    where.push('um.user_id = ?');
    params.push(scope.userId);
    personal = true;
  }
  const flags = personal ? 'um.flags' : `COALESCE(um.flags, ${MISSING_COPY_FLAGS})`;

  for (const [sql, values] of compileSearches(conditions, newSearchToken())) {
    where.push(sql);
    params.push(...values);
  }
  for (const condition of conditions) {
    if (condition.kind === 'search') continue;
    if (condition.kind === 'flag') {
      // Spelled like the partial indexes (`= 0` for unread), not as NOT (…), so they apply.
      const test = `(${flags} & ${condition.mask}) ${condition.set !== condition.negated ? '<>' : '='} 0`;
      // The same flag test twice (first_unread adds unread to an is:unread narrow) is one test.
      if (!where.includes(test)) where.push(test);
      continue;
    }
    const [sql, values] = compileCondition(condition, scope.userId);
    where.push(condition.negated ? `NOT (${sql})` : sql);
    params.push(...values);
  }
  return { from, where, params, id: personal ? 'um.message_id' : 'm.id' };
}

function compileCondition(c: Exclude<MessageCondition, { kind: 'flag' }>, viewerId: number): [string, unknown[]] {
  switch (c.kind) {
    case 'stream':
      return ['m.stream_id = ?', [c.streamId]];
    case 'streams':
      return ['m.stream_id IN (SELECT value FROM json_each(?))', [JSON.stringify(c.streamIds)]];
    case 'topic':
      // `stream_id IS NOT NULL` is `type = 'stream'` (only channel messages have a channel), spelled
      // as message_stream_topic's condition so that the index covers the walk.
      return ['(m.stream_id IS NOT NULL AND m.topic = ? COLLATE NOCASE)', [c.topic]];
    case 'sender':
      return ['m.sender_id = ?', [c.userId]];
    case 'dm':
      return ['m.dm_key = ?', [c.dmKey]];
    case 'dm-including':
      return ["(m.type = 'private' AND (',' || m.dm_key || ',') LIKE ?)", [`%,${c.userId},%`]];
    case 'is-dm':
      return ["m.type = 'private'", []];
    case 'resolved':
      return ["(m.type = 'stream' AND m.topic LIKE '✔ %')", []];
    case 'has':
      if (c.what === 'reaction') return ['EXISTS (SELECT 1 FROM reaction r WHERE r.message_id = m.id)', []];
      return [`m.has_${c.what} = 1`, []];
    case 'search':
      // Compiled by compileSearches; kept for the switch to be exhaustive.
      return [FTS_MATCH, [ftsQuery(c.text), newSearchToken()]];
    case 'id':
      return ['m.id = ?', [c.id]];
    case 'none':
      return ['0', []];
    case 'followed':
      return [`(m.type = 'stream' AND ${topicPolicy('= 3')})`, [viewerId]];
    case 'muted':
      // The reference's is:muted: a muted topic, or a muted channel's topic that is not unmuted or followed.
      return [
        `(m.type = 'stream' AND (${topicPolicy('= 1')} OR (EXISTS (SELECT 1 FROM subscription s WHERE s.user_id = ? AND s.stream_id = m.stream_id AND s.active = 1 AND s.is_muted = 1) AND NOT ${topicPolicy('IN (2, 3)')})))`,
        [viewerId, viewerId, viewerId],
      ];
    case 'mentions':
      return [
        `(EXISTS (SELECT 1 FROM user_message t WHERE t.user_id = ? AND t.message_id = m.id AND (t.flags & ${FLAG_BITS.mentioned}) <> 0) AND instr(m.rendered_content, ?) > 0)`,
        [c.userId, directMentionMarkup(c.userId)],
      ];
  }
}

/** Whether the viewer (the one parameter) has a policy matching `test` for the message's topic. */
const topicPolicy = (test: string) =>
  `EXISTS (SELECT 1 FROM user_topic ut WHERE ut.user_id = ? AND ut.stream_id = m.stream_id AND ut.topic = m.topic COLLATE NOCASE AND ut.visibility_policy ${test})`;

/** A full-text lookup: its parameters are the FTS5 query and a search-budget token. */
const FTS_MATCH = `m.id IN (SELECT rowid FROM message_fts WHERE message_fts MATCH ? AND ${SEARCH_STEP})`;

/**
 * Keyword search: every word must occur (as a prefix of a word of the content or topic).
 * Words are quoted, so FTS5 operators in user input are plain text.
 */
export function ftsQuery(text: string): string {
  const words = ftsWords(text);
  return words.length === 0 ? '""' : words.join(' ');
}

const ftsWords = (text: string) => (text.match(/[\p{L}\p{N}_]+/gu) ?? []).map((word) => `"${word}"*`);

/**
 * The narrow's `search` terms as at most two full-text lookups, however many terms there are:
 * the words of every plain term in one MATCH (each must occur), and the negated terms in one
 * NOT MATCH of their alternatives (no negated term may match in full). Each lookup walks the
 * index once, so a narrow of many search terms costs about as much as one of a single term.
 * A term without words keeps its own condition, matching nothing (or, negated, everything).
 */
function compileSearches(conditions: readonly MessageCondition[], token: number): Array<[string, unknown[]]> {
  const compiled: Array<[string, unknown[]]> = [];
  // Sets: a word repeated across terms is looked up once.
  const all = new Set<string>();
  const none = new Set<string>();
  for (const c of conditions) {
    if (c.kind !== 'search') continue;
    const words = ftsWords(c.text);
    if (words.length === 0) compiled.push([c.negated ? `NOT (${FTS_MATCH})` : FTS_MATCH, ['""', token]]);
    else if (c.negated) none.add(`(${[...new Set(words)].join(' ')})`);
    else for (const word of words) all.add(word);
  }
  if (all.size > 0) compiled.push([FTS_MATCH, [[...all].join(' '), token]]);
  if (none.size > 0) compiled.push([`NOT (${FTS_MATCH})`, [[...none].join(' OR '), token]]);
  return compiled;
}
