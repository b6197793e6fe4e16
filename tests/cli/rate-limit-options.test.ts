/** `teamchat serve`'s rate-limit options, parsed (the process itself: rate-limits-process.test.ts). */
import { REFERENCE_RATE_LIMIT_RULES } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { rateLimitConfig } from '../../packages/cli/src/rate-limits.js';

describe('rateLimitConfig', () => {
  it('turns the reference’s limits on by default, and off with --no-rate-limits', () => {
    expect(rateLimitConfig({})).toEqual({ rateLimiting: true, rateLimitRules: REFERENCE_RATE_LIMIT_RULES });
    expect(rateLimitConfig({ noRateLimits: true })).toMatchObject({ rateLimiting: false });
  });

  it('replaces the rules of each domain named, keeping the others', () => {
    expect(rateLimitConfig({ rateLimit: ['api_by_user=300/60'] }).rateLimitRules).toEqual({
      api_by_user: [{ requests: 300, seconds: 60 }],
      api_by_ip: [{ requests: 100, seconds: 60 }],
    });
    expect(rateLimitConfig({ rateLimit: ['api_by_user=20/1', 'api_by_user=1000/3600', 'api_by_ip=off'] }).rateLimitRules).toEqual({
      api_by_user: [
        { requests: 20, seconds: 1 },
        { requests: 1000, seconds: 3600 },
      ],
      api_by_ip: [],
    });
    expect(rateLimitConfig({ rateLimit: ['api_by_ip=5/0.5'] }).rateLimitRules.api_by_ip).toEqual([{ requests: 5, seconds: 0.5 }]);
  });

  it('refuses a malformed rule, an unknown domain, a zero count or window, naming the option', () => {
    for (const bad of ['api_by_user', 'api_by_user=200', 'api_by_user=200/', 'api_by_user=-1/60', 'api_by_user=x/60', 'by_user=200/60', 'api_by_user=200/60/2', '']) {
      expect(() => rateLimitConfig({ rateLimit: [bad] }), bad).toThrow(/^--rate-limit takes DOMAIN=REQUESTS\/SECONDS or DOMAIN=off with DOMAIN one of api_by_user, api_by_ip, not '/);
    }
    expect(() => rateLimitConfig({ rateLimit: ['api_by_user=0/60'] })).toThrow("--rate-limit 'api_by_user=0/60': the request count must be a positive integer, not 0");
    expect(() => rateLimitConfig({ rateLimit: ['api_by_ip=10/0'] })).toThrow("--rate-limit 'api_by_ip=10/0': the window must be a positive number of seconds, not 0");
    expect(() => rateLimitConfig({ rateLimit: ['api_by_ip=99999999999999999999/60'] })).toThrow(/the request count must be a positive integer/);
  });
});
