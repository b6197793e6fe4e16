/**
 * The realm-domain part of the storage contract: the email domains an organization calls its
 * own (the reference's RealmDomain). See types.ts for the isolation rules every store follows.
 */

export interface RealmDomain {
  /** Lower case. */
  domain: string;
  allowSubdomains: boolean;
}

/** A realm's allowed email domains. */
export interface RealmDomainStore {
  /** The realm's domains in the order they were added. */
  list(realmId: number): Promise<RealmDomain[]>;
  /** Adds a domain: its new row ID, or undefined (nothing written) when the realm has it already. */
  add(realmId: number, domain: RealmDomain): Promise<number | undefined>;
  /** Changes allow_subdomains; false when the realm has no such domain. */
  update(realmId: number, domain: string, allowSubdomains: boolean): Promise<boolean>;
  /** Removes a domain; false when the realm has no such domain. */
  remove(realmId: number, domain: string): Promise<boolean>;
}
