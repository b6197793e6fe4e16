/**
 * `teamchat serve`'s rate-limit options: the reference's limits are on unless `--no-rate-limits`,
 * and `--rate-limit-rules` replaces the rules of the domains it names; the rules and the decision
 * are core's (rate-limits/ in @teamchat/core).
 */
import { invalidRateLimitRule, RATE_LIMIT_DOMAINS, type RateLimitDomain, type RateLimitRule, type RateLimitRules, REFERENCE_RATE_LIMIT_RULES } from '@teamchat/core';
import { CliError } from './data-dir.js';

const RULE = /^([a-z_]+)=(?:(\d+)\/(\d+(?:\.\d+)?)|off)$/;

/** What the option takes, for help and error messages. */
export const RULES_FORMAT = 'DOMAIN=REQUESTS/SECONDS or DOMAIN=off, separated by commas';

/**
 * Reads `api_by_user=300/60,api_by_ip=off`: each domain named gets the rules given for it (a
 * domain named twice gets both, a short and a long window; `off` gives it none), the others keep
 * the reference's. Errors name `source` (the flag or the environment variable).
 */
export function parseRateLimitRules(raw: string, source: string): RateLimitRules {
  const given = new Map<RateLimitDomain, RateLimitRule[]>();
  for (const text of raw.split(',').map((entry) => entry.trim())) {
    const match = RULE.exec(text);
    const domain = match?.[1] as RateLimitDomain | undefined;
    if (!match || !RATE_LIMIT_DOMAINS.includes(domain!)) {
      throw new CliError(`${source} takes ${RULES_FORMAT}, with DOMAIN one of ${RATE_LIMIT_DOMAINS.join(', ')}; '${text}' is not one`);
    }
    const rules = given.get(domain!) ?? [];
    given.set(domain!, rules);
    if (match[2] === undefined) continue;
    const rule = { requests: Number(match[2]), seconds: Number(match[3]) };
    const invalid = invalidRateLimitRule(rule);
    if (invalid) throw new CliError(`${source} '${text}': ${invalid}`);
    rules.push(rule);
  }
  return { ...REFERENCE_RATE_LIMIT_RULES, ...Object.fromEntries(given) };
}
