/**
 * `teamchat serve`'s rate-limit options: the reference's limits are on unless `--no-rate-limits`,
 * and `--rate-limit DOMAIN=REQUESTS/SECONDS` (repeatable) replaces a domain's rules; the rules
 * and the decision are core's (rate-limits/ in @teamchat/core).
 */
import { invalidRateLimitRule, RATE_LIMIT_DOMAINS, type RateLimitDomain, type RateLimitRule, REFERENCE_RATE_LIMIT_RULES, type ServerConfig } from '@teamchat/core';
import { CliError } from './data-dir.js';

const RULE = /^([a-z_]+)=(?:(\d+)\/(\d+(?:\.\d+)?)|off)$/;

/**
 * The configuration the options give: `--rate-limit api_by_user=300/60` gives the domain that
 * one rule, naming a domain twice gives it both rules (a short and a long window), and
 * `DOMAIN=off` gives it none. Domains not named keep the reference's rules.
 */
export function rateLimitConfig(options: { noRateLimits?: boolean; rateLimit?: readonly string[] }): Pick<ServerConfig, 'rateLimiting' | 'rateLimitRules'> {
  const given = new Map<RateLimitDomain, RateLimitRule[]>();
  for (const text of options.rateLimit ?? []) {
    const match = RULE.exec(text.trim());
    const domain = match?.[1] as RateLimitDomain | undefined;
    if (!match || !RATE_LIMIT_DOMAINS.includes(domain!)) {
      throw new CliError(`--rate-limit takes DOMAIN=REQUESTS/SECONDS or DOMAIN=off with DOMAIN one of ${RATE_LIMIT_DOMAINS.join(', ')}, not '${text}'`);
    }
    const rules = given.get(domain!) ?? [];
    given.set(domain!, rules);
    if (match[2] === undefined) continue;
    const rule = { requests: Number(match[2]), seconds: Number(match[3]) };
    const invalid = invalidRateLimitRule(rule);
    if (invalid) throw new CliError(`--rate-limit '${text}': ${invalid}`);
    rules.push(rule);
  }
  const rateLimitRules = { ...REFERENCE_RATE_LIMIT_RULES, ...Object.fromEntries(given) };
  return { rateLimiting: !options.noRateLimits, rateLimitRules };
}
