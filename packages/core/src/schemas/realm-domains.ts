/** Input of the realm-domain endpoints (the reference's views/realm_domains.py). */
import { type } from './known-structs.js';
import { JsonBool, Str } from './wire.js';

export const AddRealmDomainParams = type({ domain: Str, allow_subdomains: JsonBool });
export const ChangeRealmDomainParams = type({ domain: Str, allow_subdomains: JsonBool });
export const RemoveRealmDomainParams = type({ domain: Str });
