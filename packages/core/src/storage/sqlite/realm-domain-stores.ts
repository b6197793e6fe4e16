import type { RealmDomain, RealmDomainStore } from '../realm-domain-types.js';
import type { TableMap } from './columns.js';
import type { Statements } from './statements.js';

const DOMAIN: TableMap<RealmDomain> = { table: 'realm_domain', booleans: ['allowSubdomains'] };

/** The realm-domain store over a connection's statements. */
export function realmDomainStore(q: Statements): RealmDomainStore {
  return {
    async list(realmId) {
      return await q.all(DOMAIN, 'SELECT domain, allow_subdomains FROM realm_domain WHERE realm_id = ? ORDER BY id', realmId);
    },
    async add(realmId, { domain, allowSubdomains }) {
      // OR IGNORE: a domain the realm has already (the unique index) writes nothing.
      const result = await q.run(
        'INSERT OR IGNORE INTO realm_domain (realm_id, domain, allow_subdomains) SELECT id, ?, ? FROM realm WHERE id = ?',
        domain,
        Number(allowSubdomains),
        realmId,
      );
      return result.changes === 1 ? Number(result.lastInsertRowid) : undefined;
    },
    async update(realmId, domain, allowSubdomains) {
      return (await q.run('UPDATE realm_domain SET allow_subdomains = ? WHERE realm_id = ? AND domain = ?', Number(allowSubdomains), realmId, domain)).changes === 1;
    },
    async remove(realmId, domain) {
      return (await q.run('DELETE FROM realm_domain WHERE realm_id = ? AND domain = ?', realmId, domain)).changes === 1;
    },
  };
}
