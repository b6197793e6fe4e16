import { err, ok, type Result } from 'neverthrow';
import { type ApiError, badRequest, insufficientPermission, mustBeOwner } from '../errors.js';
import type { Actor } from '../operation.js';
import type { TopicsPolicy } from '../storage/types.js';
import { canCreatePrivateChannels, canCreatePublicChannels, canCreateWebPublicChannels } from './channel-rules.js';
import { hasRealmPermission } from './realm-rules.js';
import { isAdmin, isOwner } from './roles.js';

/** The creation settings whose permissions are checked, as both creation endpoints take them. */
export interface ChannelCreationRequest {
  invite_only: boolean;
  is_web_public: boolean;
  is_default_stream: boolean;
  topics_policy?: TopicsPolicy;
}

/**
 * check_channel_creation_permissions, in the reference's order, then the owner-only retention
 * setting and the topics policy: one rule for POST /users/me/subscriptions and POST /channels/create.
 */
export function checkChannelCreation(actor: Actor, request: ChannelCreationRequest, retentionDays: number | null): Result<void, ApiError> {
  const { user, realm } = actor;
  if (retentionDays !== null && !isOwner(user)) return err(mustBeOwner());
  if (request.topics_policy !== undefined && request.topics_policy !== 'inherit' && !hasRealmPermission(user, realm, 'can_set_topics_policy_group')) {
    return err(insufficientPermission());
  }
  if (request.invite_only ? !canCreatePrivateChannels(user, realm) : !canCreatePublicChannels(user, realm)) return err(insufficientPermission());
  if (request.is_default_stream && !isAdmin(user)) return err(insufficientPermission());
  if (request.invite_only && request.is_default_stream) return err(badRequest('A default channel cannot be private.'));
  if (request.is_web_public) {
    if (!realm.webPublicAccessEnabled) return err(badRequest('Web-public channels are not enabled.'));
    if (!canCreateWebPublicChannels(user, realm)) return err(insufficientPermission());
    if (request.invite_only) return err(badRequest('Invalid parameters'));
  }
  return ok(undefined);
}
