import type { Invitation, Realm } from '../storage/types.js';

/**
 * The accept link of an invitation, as the reference builds a reusable link's URL
 * (`{realm}/join/{key}/`). Email invitations use the same form: one accept flow for both.
 */
export const invitationLink = (realm: Pick<Realm, 'url'>, invitation: Pick<Invitation, 'key'>) =>
  `${realm.url}/join/${invitation.key}/`;

/** An invitation as GET /invites lists it (SHAPES.md 5.11). */
export interface ApiInvitation {
  id: number;
  is_multiuse: boolean;
  /** Reusable links only. */
  link_url?: string;
  /** Email invitations only. */
  email?: string | null;
  /** UNIX seconds. */
  invited: number;
  /** UNIX seconds; null when it never expires. */
  expiry_date: number | null;
  /** The role the invited person joins with. */
  invited_as: number;
  invited_by_user_id: number;
  notify_referrer_on_join: boolean;
}

/** An invitation as GET /invites lists it (SHAPES.md 5.11): `email` or `link_url` by kind. */
export function formatInvitation(realm: Pick<Realm, 'url'>, invitation: Invitation): ApiInvitation {
  return {
    id: invitation.id,
    is_multiuse: invitation.isMultiuse,
    ...(invitation.isMultiuse ? { link_url: invitationLink(realm, invitation) } : { email: invitation.email }),
    invited: invitation.invitedAt,
    expiry_date: invitation.expiresAt,
    invited_as: invitation.inviteAs,
    invited_by_user_id: invitation.referrerId,
    notify_referrer_on_join: invitation.notifyReferrerOnJoin,
  };
}
