import { formatRealmDomain } from '../queries/realm-domains.js';
import { defineSection } from './sections.js';

/** The `realm_domains` section: the realm's email domains. */
export const realmDomainsSection = defineSection({
  key: 'realm_domains',
  async fetch(_ctx, tx, { realm }) {
    return { realm_domains: (await tx.realmDomains.list(realm.id)).map(formatRealmDomain) };
  },
});
