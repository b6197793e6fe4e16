/**
 * The realm's email domains (the reference's views and actions/realm_domains.py): owners add,
 * change and remove them (the reference's views use require_realm_owner; administrators could
 * only before its 4.0); every change goes to all active users as a realm_domains event.
 */
import { err, ok } from 'neverthrow';
import { domainProblem } from '../access/email-domain.js';
import { isOwner } from '../access/roles.js';
import type { Ctx } from '../context.js';
import { badRequest, mustBeOwner } from '../errors.js';
import { publishOnCommit } from '../events/publish.js';
import { type Actor, userOperation } from '../operation.js';
import { AddRealmDomainParams, ChangeRealmDomainParams, RemoveRealmDomainParams } from '../schemas/realm-domains.js';
import type { Realm, Tx } from '../storage/types.js';
import { transactionAs } from '../transaction.js';
import type { DistributiveOmit } from '../events/types.js';
import type { RealmDomainsEvent } from '../events/union/realm.js';

const noEntry = (domain: string) => badRequest(`No entry found for domain ${domain}.`);

/** POST /realm/domains: the domain is stripped and lower-cased; returns `new_domain` as [id, domain]. */
export const doAddRealmDomain = userOperation(AddRealmDomainParams, async (ctx, requester: Actor, params) => {
  if (!isOwner(requester.user)) return err(mustBeOwner());
  const domain = params.domain.trim().toLowerCase();
  const problem = domainProblem(domain);
  if (problem) return err(badRequest(`Invalid domain: ${problem}`));
  return transactionAs(ctx, requester, async (tx, actor) => {
    if (!isOwner(actor.user)) return err(mustBeOwner());
    const added = { domain, allowSubdomains: params.allow_subdomains };
    const id = await tx.realmDomains.add(actor.realm.id, added);
    if (id === undefined) {
      return err(badRequest(`The domain ${domain} is already a part of your organization.`));
    }
    await announce(ctx, tx, actor.realm, { op: 'add', realm_domain: { domain, allow_subdomains: params.allow_subdomains } });
    return ok({ new_domain: [id, domain] });
  });
});

/** PATCH /realm/domains/{domain}: the path's domain is matched as given, as in the reference. */
export const doChangeRealmDomain = userOperation(ChangeRealmDomainParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, actor) => {
    if (!isOwner(actor.user)) return err(mustBeOwner());
    if (!(await tx.realmDomains.update(actor.realm.id, params.domain, params.allow_subdomains))) return err(noEntry(params.domain));
    await announce(ctx, tx, actor.realm, { op: 'change', realm_domain: { domain: params.domain, allow_subdomains: params.allow_subdomains } });
    return ok({});
  }),
);

/** DELETE /realm/domains/{domain}. */
export const doRemoveRealmDomain = userOperation(RemoveRealmDomainParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, actor) => {
    if (!isOwner(actor.user)) return err(mustBeOwner());
    if (!(await tx.realmDomains.remove(actor.realm.id, params.domain))) return err(noEntry(params.domain));
    await announce(ctx, tx, actor.realm, { op: 'remove', domain: params.domain });
    return ok({});
  }),
);

async function announce(ctx: Ctx, tx: Tx, realm: Realm, body: DistributiveOmit<RealmDomainsEvent, 'type'>): Promise<void> {
  const userIds = (await tx.users.list(realm.id)).filter((u) => u.isActive).map((u) => u.id);
  publishOnCommit(ctx, tx, { realmId: realm.id, userIds, event: { type: 'realm_domains', ...body } });
}
