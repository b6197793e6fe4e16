/** The realm-domains migration (appended to MIGRATIONS): one row per domain of a realm. */
export const REALM_DOMAINS_MIGRATION = `
  CREATE TABLE realm_domain (
    id INTEGER PRIMARY KEY,
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    domain TEXT NOT NULL,
    allow_subdomains INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX realm_domain_unique ON realm_domain (realm_id, domain);
`;
