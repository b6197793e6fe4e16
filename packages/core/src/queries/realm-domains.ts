import { ok } from 'neverthrow';
import { type } from '../schemas/known-structs.js';
import { type Actor, userOperation } from '../operation.js';
import type { RealmDomain } from '../storage/types.js';

/** A domain as the API shows it (the reference's RealmDomainDict). */
export const formatRealmDomain = (domain: RealmDomain) => ({ domain: domain.domain, allow_subdomains: domain.allowSubdomains });

/** GET /realm/domains: any user of the realm may read them. */
export const getRealmDomains = userOperation(type({}), async (ctx, actor: Actor) => {
  const domains = await ctx.storage.read((tx) => tx.realmDomains.list(actor.realm.id));
  return ok({ domains: domains.map(formatRealmDomain) });
});
