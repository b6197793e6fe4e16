import { err, ok } from 'neverthrow';
import type { Ctx } from '../context.js';
import { badRequest, invalidVideoProviderToken, videoProviderNotConfigured } from '../errors.js';
import { type Actor, userOperation } from '../operation.js';
import { CreateVideoCallParams } from '../schemas/video-calls.js';
import type { User } from '../storage/types.js';
import type { VideoCallOutcome } from '../video-calls/provider.js';

/**
 * POST /calls/videoprovider/create (API.md 4.21, FACTS.md 6.10): a meeting URL from the
 * configured provider. A provider that rejects the user's token has forgotten it, so the user's
 * clients are told `has_videoprovider_token: false`, as the reference clears the stored token.
 */
export const doCreateVideoCall = userOperation(CreateVideoCallParams, async (ctx, { user }: Actor, params) => {
  const provider = ctx.videoCalls;
  if (!provider) return err(videoProviderNotConfigured());
  if (!(await provider.hasToken(user))) return err(invalidVideoProviderToken());
  let outcome: VideoCallOutcome;
  try {
    outcome = await provider.createCall(user, { isVideoCall: params.is_video_call ?? true });
  } catch {
    // A provider's exception (network, upstream) must not cross the core boundary.
    outcome = { failure: 'failed' };
  }
  if ('url' in outcome) return ok({ url: outcome.url });
  if (outcome.failure === 'invalid_token') {
    announceVideoProviderToken(ctx, user, false);
    return err(invalidVideoProviderToken());
  }
  return err(badRequest('Failed to create video call'));
});

/**
 * Tells the user's own clients whether they have a linked video-call account (SHAPES.md 4.22).
 * Providers and embedders call this when a user completes or loses the provider's OAuth flow;
 * the token lives outside teamchat's store, so there is no transaction to wait for.
 */
export function announceVideoProviderToken(ctx: Ctx, user: Pick<User, 'realmId' | 'id'>, hasToken: boolean): void {
  ctx.events.publish({
    realmId: user.realmId,
    userIds: [user.id],
    event: { type: 'has_videoprovider_token', value: hasToken },
  });
}
