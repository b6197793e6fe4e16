/** GET/POST /realm/domains, PATCH/DELETE /realm/domains/{domain}, realm_domains events and register section. */
import { doAddRealmDomain, doChangeRealmDomain, doRemoveRealmDomain, getRealmDomains } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { channelWorld, ids, queued, recipientsOf, register } from './channel-helpers.js';
import { expectBadRequest, expectError, secondRealm } from './fixtures.js';

describe('realm domains', () => {
  it('owners add (stripped, lower-cased), change and remove domains; every active user gets the events', async () => {
    const c = await channelWorld();
    const before = await register(c.w, c.member, { event_types: '["realm_domains"]', fetch_event_types: '["realm_domains"]' });
    expect(before.realm_domains).toEqual([]);
    c.drain();
    const added = must(await doAddRealmDomain(c.w.ctx, c.w.as(c.w.owner), { domain: ' Example.COM ', allow_subdomains: false }));
    expect(added).toEqual({ new_domain: [expect.any(Number), 'example.com'] });
    must(await doAddRealmDomain(c.w.ctx, c.w.as(c.w.owner), { domain: 'corp.example.org', allow_subdomains: true }));
    must(await doChangeRealmDomain(c.w.ctx, c.w.as(c.w.owner), { domain: 'example.com', allow_subdomains: true }));
    must(await doRemoveRealmDomain(c.w.ctx, c.w.as(c.w.owner), { domain: 'corp.example.org' }));
    expect(must(await getRealmDomains(c.w.ctx, c.w.as(c.guest), {}))).toEqual({ domains: [{ domain: 'example.com', allow_subdomains: true }] });
    const published = c.drain();
    expect(recipientsOf(published, 'realm_domains')[0]).toEqual(ids(c.w.owner, c.admin, c.moderator, c.member, c.other, c.guest, c.bot));
    const events = (await queued(c.w, c.member, before.queue_id)).map(({ id: _id, ...e }) => e);
    expect(events).toEqual([
      { type: 'realm_domains', op: 'add', realm_domain: { domain: 'example.com', allow_subdomains: false } },
      { type: 'realm_domains', op: 'add', realm_domain: { domain: 'corp.example.org', allow_subdomains: true } },
      { type: 'realm_domains', op: 'change', realm_domain: { domain: 'example.com', allow_subdomains: true } },
      { type: 'realm_domains', op: 'remove', domain: 'corp.example.org' },
    ]);
    expect((await register(c.w, c.member, { fetch_event_types: '["realm_domains"]' })).realm_domains).toEqual([{ domain: 'example.com', allow_subdomains: true }]);
  });

  it('refuses invalid domains, duplicates, unknown domains, non-owners and bad input, writing nothing', async () => {
    const c = await channelWorld();
    must(await doAddRealmDomain(c.w.ctx, c.w.as(c.w.owner), { domain: 'example.com', allow_subdomains: false }));
    c.drain();
    const add = (domain: unknown, allow: unknown = 'false') => doAddRealmDomain.fromTransport(c.w.ctx, c.w.as(c.w.owner), { domain, allow_subdomains: allow });
    expectBadRequest(await add(' '), "Invalid domain: Domain can't be empty.");
    expectBadRequest(await add('localhost'), 'Invalid domain: Domain must have at least one dot (.)');
    expectBadRequest(await add('.example.net'), 'Invalid domain: Domain cannot start or end with a dot (.)');
    expectBadRequest(await add('a..b'), "Invalid domain: Consecutive '.' are not allowed.");
    expectBadRequest(await add('-a.b'), "Invalid domain: Subdomains cannot start or end with a '-'.");
    expectBadRequest(await add('a_b.com'), "Invalid domain: Domain can only have letters, numbers, '.' and '-'s.");
    expectBadRequest(await add(`${'a'.repeat(260)}.com`), 'Invalid domain: Domain is too long');
    expectBadRequest(await add('EXAMPLE.com'), 'The domain example.com is already a part of your organization.');
    expectBadRequest(await add('x.com', 'maybe'), 'allow_subdomains is not valid JSON');
    expectBadRequest(await add(5), 'domain is not a string');
    expectError(await doAddRealmDomain.fromTransport(c.w.ctx, c.w.as(c.w.owner), { domain: 'x.com' }), 'REQUEST_VARIABLE_MISSING', "Missing 'allow_subdomains' argument", 400, { var_name: 'allow_subdomains' });
    expectBadRequest(await doChangeRealmDomain(c.w.ctx, c.w.as(c.w.owner), { domain: 'nope.com', allow_subdomains: true }), 'No entry found for domain nope.com.');
    expectBadRequest(await doRemoveRealmDomain(c.w.ctx, c.w.as(c.w.owner), { domain: 'nope.com' }), 'No entry found for domain nope.com.');
    for (const user of [c.admin, c.moderator, c.member, c.guest]) {
      expectError(await doAddRealmDomain(c.w.ctx, c.w.as(user), { domain: 'x.com', allow_subdomains: true }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
      expectError(await doChangeRealmDomain(c.w.ctx, c.w.as(user), { domain: 'example.com', allow_subdomains: true }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
      expectError(await doRemoveRealmDomain(c.w.ctx, c.w.as(user), { domain: 'example.com' }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    }
    expectError(await getRealmDomains(c.w.ctx, c.w.as(null), {}), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    expect(c.drain()).toEqual([]);
    // Another realm's owners see and change only their own.
    const second = await secondRealm(c.w.ctx);
    const theirs = { realm: second.realm, user: second.owner };
    expect(must(await getRealmDomains(c.w.ctx, theirs, {}))).toEqual({ domains: [] });
    expectBadRequest(await doRemoveRealmDomain(c.w.ctx, theirs, { domain: 'example.com' }), 'No entry found for domain example.com.');
    must(await doAddRealmDomain(c.w.ctx, theirs, { domain: 'example.com', allow_subdomains: true }));
    expect(must(await getRealmDomains(c.w.ctx, c.w.as(c.member), {}))).toEqual({ domains: [{ domain: 'example.com', allow_subdomains: false }] });
  });
});
