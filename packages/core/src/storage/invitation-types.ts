/**
 * The invitation part of the storage contract: email invitations (one address, used once) and
 * reusable invitation links (`email` null). See types.ts for the isolation rules.
 */
import type { Role } from './types.js';

/** pending: may still be accepted (unless expired); used: an email invitation that made an account; revoked: withdrawn. */
export type InvitationStatus = 'pending' | 'used' | 'revoked';

/** What an invitation holds when it is created. */
export interface InvitationFields {
  /** The inviting user. */
  referrerId: number;
  /** The invited address; null for a reusable link. */
  email: string | null;
  inviteAs: Role;
  /** Channels to subscribe the new user to. */
  streamIds: number[];
  /** User groups to add the new user to. */
  groupIds: number[];
  includeRealmDefaultSubscriptions: boolean;
  notifyReferrerOnJoin: boolean;
  /** null: the realm's default welcome text; '' none. */
  welcomeMessageCustomText: string | null;
  /** Unix seconds of creation or of the last resend. */
  invitedAt: number;
  /** Unix seconds; null never expires. */
  expiresAt: number | null;
  /** The secret of the accept link; unique across the server. */
  key: string;
}

/** A stored invitation (by email, or a multiuse link): its fields, ID and status. */
export interface Invitation extends InvitationFields {
  id: number;
  realmId: number;
  isMultiuse: boolean;
  status: InvitationStatus;
}

/** What changes on an invitation when it is revoked or resent. */
export type InvitationPatch = Partial<Pick<Invitation, 'status' | 'invitedAt' | 'expiresAt'>>;

/** Email and multiuse invitations. */
export interface InvitationStore {
  /** Adds a pending invitation; undefined (nothing written) when the referrer is not a user of the realm. */
  insert(realmId: number, fields: InvitationFields): Promise<Invitation | undefined>;
  /** The realm's invitation `id`, any status; another realm's ID gives undefined. */
  get(realmId: number, id: number): Promise<Invitation | undefined>;
  /** The realm's invitation with this key, any status. */
  byKey(realmId: number, key: string): Promise<Invitation | undefined>;
  /** The realm's pending invitations not expired at `nowSeconds` (expiry strictly later), by ID. */
  listPending(realmId: number, nowSeconds: number): Promise<Invitation[]>;
  /**
   * Sets the given fields of a pending invitation; false (nothing written) when it is not
   * pending or not the realm's. Of two transactions using one email invitation, exactly one
   * gets true.
   */
  updatePending(realmId: number, id: number, patch: InvitationPatch): Promise<boolean>;
}
