/**
 * What the reference's lib/drafts.py does to a draft between parsing and storage
 * (further_validated_draft_dict), and how a stored draft looks on the wire.
 */
import { err, ok, type Result } from 'neverthrow';
import { accessStreamById } from '../access/channels.js';
import type { ServerConfig } from '../config.js';
import { type ApiError, badRequest } from '../errors.js';
import { normalizeContent, truncateTopic } from '../messages/normalize.js';
import { userSetting } from '../settings/user-settings.js';
import type { Draft, DraftFields, DraftType, Tx, User } from '../storage/types.js';

/** A draft as the client sends it (schemas/drafts.ts). */
export interface DraftInput {
  type: DraftType;
  to: number[];
  topic: string;
  content: string;
  timestamp?: number | null;
}

/** A draft as GET /drafts, register's `drafts` and draft events carry it (SHAPES.md 4.8). */
export interface ApiDraft {
  id: number;
  /** "" for a draft with no addressee yet. */
  type: DraftType;
  /** User IDs of a direct message, or the channel's ID (one item) for a channel message. */
  to: number[];
  topic: string;
  content: string;
  /** Last edit, in whole UNIX seconds. */
  timestamp: number;
}

/** The draft object of responses and events (SHAPES.md 4.8): timestamp in whole seconds. */
export const formatDraft = (draft: Draft): ApiDraft => ({
  id: draft.id,
  type: draft.type,
  to: draft.to,
  topic: draft.topic,
  content: draft.content,
  timestamp: Math.trunc(draft.lastEditTime),
});

/** Every draft endpoint is refused while the user has turned synchronization off. */
export function checkDraftsSynchronized(user: User): Result<void, ApiError> {
  return userSetting(user, 'enable_drafts_synchronization') ? ok(undefined) : err(badRequest('User has disabled synchronizing drafts.'));
}

/**
 * Validates a draft for `user` in the reference's order: content (normalize_body), timestamp
 * (the server's time when omitted), then the addressees by type. The topic of a draft that is
 * not a channel draft is dropped; a direct draft keeps the other participants, sorted (just
 * the user for a draft to themselves), and one without addressees becomes unaddressed, as the
 * reference's draft without a recipient reads back.
 */
export async function checkDraft(tx: Tx, user: User, input: DraftInput, config: ServerConfig, nowMs: number): Promise<Result<DraftFields, ApiError>> {
  const content = normalizeContent(input.content, config);
  if (content.isErr()) return err(content.error);
  const lastEditTime = Math.round((input.timestamp ?? nowMs / 1000) * 1e6) / 1e6;
  if (lastEditTime < 0) return err(badRequest('Timestamp must not be negative.'));
  const fields = { content: content.value, lastEditTime };

  if (input.type === 'stream') {
    const topic = truncateTopic(input.topic, config);
    if (topic.includes('\0')) return err(badRequest('Topic must not contain null bytes'));
    if (input.to.length !== 1) return err(badRequest('Must specify exactly 1 channel ID for channel messages'));
    const access = await accessStreamById(tx, user, input.to[0]!);
    if (access.isErr()) return err(access.error);
    return ok({ ...fields, type: 'stream', to: [access.value.stream.id], topic });
  }
  if (input.type === 'private' && input.to.length > 0) {
    const wanted = [...new Set(input.to)];
    const users = await tx.users.list(user.realmId, wanted);
    const missing = wanted.find((id) => !users.some((u) => u.id === id));
    if (missing !== undefined) return err(badRequest(`Invalid user ID ${missing}`));
    const others = wanted.filter((id) => id !== user.id).sort((a, b) => a - b);
    return ok({ ...fields, type: 'private', to: others.length > 0 ? others : [user.id], topic: '' });
  }
  return ok({ ...fields, type: '', to: [], topic: '' });
}
