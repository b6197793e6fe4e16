/**
 * The request rate limits: which domains exist and their default rules, those of the reference
 * server (its RATE_LIMITING_RULES for the API).
 */

/** At most `requests` requests per `seconds`: one rule of a domain. */
export interface RateLimitRule {
  requests: number;
  seconds: number;
}

/**
 * The domains of API requests: `api_by_user` counts every authenticated request per user,
 * `api_by_ip` every request without a user (spectators, logins, invitations, server settings)
 * per client address. A domain may have several rules (a short and a long window); a request
 * must fit every one of them.
 */
export interface RateLimitRules {
  api_by_user: readonly RateLimitRule[];
  api_by_ip: readonly RateLimitRule[];
}

/** The name of a domain: `api_by_user` or `api_by_ip`. */
export type RateLimitDomain = keyof RateLimitRules;

/** Every domain, in the order they are documented. */
export const RATE_LIMIT_DOMAINS: readonly RateLimitDomain[] = ['api_by_user', 'api_by_ip'];

/** The reference's defaults: 200 requests a minute per user, 100 a minute per address without a user. */
export const REFERENCE_RATE_LIMIT_RULES: RateLimitRules = {
  api_by_user: [{ requests: 200, seconds: 60 }],
  api_by_ip: [{ requests: 100, seconds: 60 }],
};

/** Why `rule` cannot be used (a count that is not a positive integer, a window that is not positive), or null. */
export function invalidRateLimitRule(rule: RateLimitRule): string | null {
  if (!Number.isSafeInteger(rule.requests) || rule.requests < 1) return `the request count must be a positive integer, not ${rule.requests}`;
  if (!Number.isFinite(rule.seconds) || rule.seconds <= 0) return `the window must be a positive number of seconds, not ${rule.seconds}`;
  return null;
}
