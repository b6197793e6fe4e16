/**
 * What only the server's operator may do: create realms, create users without an acting user,
 * and grant the special permissions (can_create_users, can_change_user_emails) that the
 * reference grants only from its command line. The CLI and embedders call these directly.
 */
import { randomUUID } from 'node:crypto';
import { err, ok, type Result } from 'neverthrow';
import { checkFullName, checkPassword, isValidEmail } from '../access/user-input.js';
import { isOnlyOwner } from '../access/users.js';
import { hashPassword } from '../auth/password.js';
import { unixSeconds } from '../clock.js';
import type { Ctx } from '../context.js';
import { type ApiError, badRequest } from '../errors.js';
import { ROLES, type Realm, type Role, type User, type UserPatch } from '../storage/types.js';
import { applyUserChange } from '../users/changes.js';
import { insertUser } from '../users/records.js';
import { ROLE } from '../access/roles.js';

/** A person or bot to create as the server operator (no acting user, so no permission check). */
export interface NewUserInput {
  email: string;
  fullName: string;
  password?: string | null;
  role?: Role;
  bot?: boolean;
  botOwnerId?: number | null;
  canCreateUsers?: boolean;
  canChangeUserEmails?: boolean;
}

/** A new organization and its first owner (`createRealm`). */
export interface NewRealmInput {
  name: string;
  /** Canonical URL of the realm, for example `http://127.0.0.1:9991`. */
  url: string;
  subdomain?: string;
  description?: string;
  webPublicAccessEnabled?: boolean;
  /** The first owner; it gets can_create_users so it can add people through the API. */
  owner: NewUserInput;
}

/** A realm's subdomain: the first label of the host names it is served under. */
const SUBDOMAIN = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

function hostOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.host.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Creates a realm and its first owner in one transaction. An installation may hold several
 * realms; each needs its own subdomain and a URL on a host of its own (requests are served by
 * the realm whose URL has their host, then by subdomain label, then by the root realm '').
 */
export async function createRealm(ctx: Ctx, input: NewRealmInput): Promise<Result<{ realm: Realm; owner: User }, ApiError>> {
  const checked = await checkNewUser(ctx, input.owner);
  if (checked.isErr()) return err(checked.error);
  return ctx.storage.transaction(async (tx) => {
    const subdomain = input.subdomain ?? '';
    if (subdomain !== '' && !SUBDOMAIN.test(subdomain)) {
      return err(badRequest(`Invalid subdomain '${subdomain}': lowercase letters, digits and inner hyphens, at most 40`));
    }
    if (await tx.realms.bySubdomain(subdomain)) return err(badRequest(`Subdomain '${subdomain}' is already in use`));
    // Requests find their realm by host (resolveRealm): two realms on one host could not both be reached.
    const host = hostOf(input.url);
    if (host === undefined) return err(badRequest(`Invalid realm URL '${input.url}'`));
    const sameHost = (await tx.realms.all()).find((other) => hostOf(other.url) === host);
    if (sameHost) return err(badRequest(`Realm URL host '${host}' is already used by realm ${sameHost.id} (${sameHost.url})`));
    const realm = await tx.realms.insert({
      subdomain,
      name: input.name,
      description: input.description ?? '',
      url: input.url.replace(/\/+$/, ''),
      uuid: randomUUID(),
      dateCreated: unixSeconds(ctx.clock),
      deactivated: false,
      webPublicAccessEnabled: input.webPublicAccessEnabled ?? false,
      emailAuthEnabled: true,
      defaultAvatarSource: 'G',
    });
    const owner = await insertUser(ctx, tx, realm, {
      ...checked.value,
      role: ROLE.owner,
      canCreateUsers: input.owner.canCreateUsers ?? true,
      canChangeUserEmails: input.owner.canChangeUserEmails ?? false,
    });
    return owner.map((user) => ({ realm, owner: user }));
  });
}

/** Creates a user (or bot) in a realm with no acting user. */
export async function createUserAsOperator(ctx: Ctx, realm: Realm, input: NewUserInput): Promise<Result<User, ApiError>> {
  const checked = await checkNewUser(ctx, input);
  if (checked.isErr()) return err(checked.error);
  return ctx.storage.transaction((tx) =>
    insertUser(ctx, tx, realm, {
      ...checked.value,
      role: input.role ?? 400,
      isBot: input.bot ?? false,
      botType: input.bot ? 1 : null,
      botOwnerId: input.botOwnerId ?? null,
      canCreateUsers: input.canCreateUsers,
      canChangeUserEmails: input.canChangeUserEmails,
    }),
  );
}

/** What `changeUserAsOperator` may change; absent fields stay as they are. */
export interface OperatorUserChange {
  role?: Role;
  password?: string;
  canCreateUsers?: boolean;
  canChangeUserEmails?: boolean;
}

/** Changes what only the operator may change about a user, found by delivery email. */
export async function changeUserAsOperator(
  ctx: Ctx,
  realm: Realm,
  email: string,
  change: OperatorUserChange,
): Promise<Result<User, ApiError>> {
  if (change.role !== undefined && !ROLES.includes(change.role)) return err(badRequest('Invalid role'));
  const patch: UserPatch = {};
  if (change.password !== undefined) {
    const password = checkPassword(change.password);
    if (password.isErr()) return err(password.error);
    patch.passwordHash = await hashPassword(ctx, password.value);
  }
  if (change.role !== undefined) patch.role = change.role;
  if (change.canCreateUsers !== undefined) patch.canCreateUsers = change.canCreateUsers;
  if (change.canChangeUserEmails !== undefined) patch.canChangeUserEmails = change.canChangeUserEmails;
  return ctx.storage.transaction(async (tx) => {
    const user = await tx.users.byDeliveryEmail(realm.id, email);
    if (!user) return err(badRequest(`No user with email '${email}'`));
    // The operator keeps the API's one invariant about roles: a realm always has an active owner.
    if (patch.role !== undefined && patch.role !== user.role && (await isOnlyOwner(tx, user))) {
      return err(badRequest('The owner permission cannot be removed from the only organization owner.'));
    }
    return ok(await applyUserChange(ctx, tx, realm, user, patch));
  });
}

/**
 * Realm settings the operator may set without an acting user or events: columns, and stored
 * settings (`settings` is merged into the realm's, unchecked; PATCH /realm is the checked way).
 */
export async function updateRealmAsOperator(
  ctx: Ctx,
  realm: Realm,
  patch: Partial<Pick<Realm, 'name' | 'description' | 'url' | 'webPublicAccessEnabled' | 'emailAuthEnabled' | 'deactivated' | 'defaultAvatarSource' | 'settings'>>,
): Promise<Result<Realm, ApiError>> {
  return ctx.storage.transaction(async (tx) => {
    const current = await tx.realms.byId(realm.id);
    if (!current) return err(badRequest('Invalid realm'));
    await tx.realms.update(realm.id, patch.settings ? { ...patch, settings: { ...current.settings, ...patch.settings } } : patch);
    const updated = await tx.realms.byId(realm.id);
    return updated ? ok(updated) : err(badRequest('Invalid realm'));
  });
}

/** Looks up a realm by subdomain ('' is the root realm). */
export async function findRealm(ctx: Ctx, subdomain = ''): Promise<Realm | undefined> {
  return ctx.storage.read((tx) => tx.realms.bySubdomain(subdomain));
}

async function checkNewUser(ctx: Ctx, input: NewUserInput) {
  const email = input.email.trim();
  if (!isValidEmail(email)) return err(badRequest(`Invalid email address '${email}'`));
  const fullName = checkFullName(input.fullName);
  if (fullName.isErr()) return err(fullName.error);
  let passwordHash: string | null = null;
  if (input.password !== undefined && input.password !== null) {
    const password = checkPassword(input.password);
    if (password.isErr()) return err(password.error);
    passwordHash = await hashPassword(ctx, password.value);
  }
  return ok({ email, fullName: fullName.value, passwordHash });
}
