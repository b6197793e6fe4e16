/** `teamchat serve --rate-limit-rules`, parsed (the process itself: rate-limits-process.test.ts). */
import { REFERENCE_RATE_LIMIT_RULES } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { parseRateLimitRules } from '../../packages/cli/src/rate-limits.js';

const parse = (raw: string) => parseRateLimitRules(raw, '--rate-limit-rules');

describe('parseRateLimitRules', () => {
  it('replaces the rules of each domain named, keeping the reference’s for the others', () => {
    expect(parse('api_by_user=300/60')).toEqual({ api_by_user: [{ requests: 300, seconds: 60 }], api_by_ip: REFERENCE_RATE_LIMIT_RULES.api_by_ip });
    expect(parse(' api_by_user=20/1 , api_by_user=1000/3600,api_by_ip=off')).toEqual({
      api_by_user: [
        { requests: 20, seconds: 1 },
        { requests: 1000, seconds: 3600 },
      ],
      api_by_ip: [],
    });
    expect(parse('api_by_ip=5/0.5').api_by_ip).toEqual([{ requests: 5, seconds: 0.5 }]);
  });

  it('refuses a malformed rule, an unknown domain, a zero count or window, naming where it came from', () => {
    for (const bad of ['api_by_user', 'api_by_user=200', 'api_by_user=200/', 'api_by_user=-1/60', 'api_by_user=x/60', 'by_user=200/60', 'api_by_user=200/60/2', '', 'api_by_user=1/1,']) {
      expect(() => parse(bad), bad).toThrow(
        /^--rate-limit-rules takes DOMAIN=REQUESTS\/SECONDS or DOMAIN=off, separated by commas, with DOMAIN one of api_by_user, api_by_ip; '.*' is not one$/,
      );
    }
    expect(() => parse('api_by_user=0/60')).toThrow("--rate-limit-rules 'api_by_user=0/60': the request count must be a positive integer, not 0");
    expect(() => parseRateLimitRules('api_by_ip=10/0', 'TEAMCHAT_RATE_LIMIT_RULES')).toThrow(
      "TEAMCHAT_RATE_LIMIT_RULES 'api_by_ip=10/0': the window must be a positive number of seconds, not 0",
    );
    expect(() => parse('api_by_ip=99999999999999999999/60')).toThrow(/the request count must be a positive integer/);
  });
});
