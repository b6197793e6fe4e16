/**
 * The deprecated integer policies that group settings replaced, still in the register's realm
 * section because clients read them (the mobile app requires `realm_wildcard_mention_policy`).
 * Each is derived from its group setting as the reference derives it: the policy of the system
 * group the setting names, or the policy of the largest allowed group when it names another.
 */
import type { Realm, StoredGroupSetting } from '../storage/types.js';
import { realmGroupSetting } from './realm-settings.js';

/** Realm.SYSTEM_GROUPS_ENUM_MAP: system group → the common policy enum. */
const POLICY_OF_GROUP: Readonly<Record<string, number>> = {
  'role:members': 1,
  'role:administrators': 2,
  'role:fullmembers': 3,
  'role:moderators': 4,
  'role:everyone': 5,
  'role:nobody': 6,
  'role:owners': 7,
};

/** WildcardMentionPolicyEnum by system group (it numbers the policies its own way). */
const WILDCARD_POLICY_OF_GROUP: Readonly<Record<string, number>> = {
  'role:everyone': 1,
  'role:members': 2,
  'role:fullmembers': 3,
  'role:administrators': 5,
  'role:nobody': 6,
  'role:moderators': 7,
};

const COMMON_POLICIES = [1, 2, 3, 4];
const WEB_PUBLIC_CHANNEL_POLICIES = [2, 4, 6, 7];

function policyOf(setting: StoredGroupSetting, allowed: readonly number[], fallback: number): number {
  const policy = typeof setting === 'string' ? POLICY_OF_GROUP[setting] : undefined;
  return policy !== undefined && allowed.includes(policy) ? policy : fallback;
}

/** The deprecated policy keys of the register's realm section. */
export interface LegacyRealmPolicies {
  realm_create_public_stream_policy: number;
  realm_create_private_stream_policy: number;
  realm_create_web_public_stream_policy: number;
  realm_wildcard_mention_policy: number;
}

/** `realm_create_*_stream_policy` and `realm_wildcard_mention_policy`, from the realm's group settings. */
export function legacyRealmPolicies(realm: Pick<Realm, 'settings'>): LegacyRealmPolicies {
  const mention = realmGroupSetting(realm, 'can_mention_many_users_group');
  return {
    realm_create_public_stream_policy: policyOf(realmGroupSetting(realm, 'can_create_public_channel_group'), COMMON_POLICIES, 1),
    realm_create_private_stream_policy: policyOf(realmGroupSetting(realm, 'can_create_private_channel_group'), COMMON_POLICIES, 1),
    realm_create_web_public_stream_policy: policyOf(realmGroupSetting(realm, 'can_create_web_public_channel_group'), WEB_PUBLIC_CHANNEL_POLICIES, 4),
    realm_wildcard_mention_policy: (typeof mention === 'string' ? WILDCARD_POLICY_OF_GROUP[mention] : undefined) ?? 1,
  };
}
