/**
 * The permission matrix (issue #10): every route of the route table × every caller (each role,
 * a bot, a deactivated user, bad credentials, a spectator) × target (own objects, another
 * user's, another realm's), checked against tests/matrix/expectations.ts. Each family of routes
 * shares one two-realm world; requests run one after another, least privileged caller first.
 */
import type { User } from '@teamchat/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Credentials, describeRequest } from './client.js';
import { answerOf, Findings, unknownIds } from './checks.js';
import type { Rule } from './expectations.js';
import { CALLERS, families, firstAllowed, type MatrixEntry, mayCall, mayReachOthers, spectatorAllowed } from './routes.js';
import { buildMatrixWorld, type MatrixWorld } from './world.js';

/** A key of the right form that no account holds. */
const WRONG_KEY = 'x'.repeat(32);

for (const [family, entries] of families()) {
  describe(`permission matrix: ${family}`, () => {
    let w: MatrixWorld;
    beforeAll(async () => {
      w = await buildMatrixWorld();
    });

    for (const entry of entries) {
      it(entry.key, async () => {
        const findings = await runEntry(w, entry);
        expect(findings.lines, findings.lines.join('\n')).toEqual([]);
      });
    }

    // Events are data too: nothing the family's requests did reaches the other realm's queues.
    it('the other realm’s event queues received nothing of this realm', async () => {
      const owners = [...Object.values(w.bravo.users), w.bravo.victim];
      const leaks: string[] = [];
      // The queues do hold the second realm's own events, so reading them proves something.
      let sawOwnRealm = false;
      for (const { user, queueId } of owners) {
        const creds = (await w.ctx.storage.read((tx) => tx.users.byId(user.realmId, user.id))) ?? user;
        const response = await w.send(w.bravo.host, creds, { method: 'GET', path: '/events', form: { queue_id: queueId, last_event_id: '-1', dont_block: 'true' } });
        expect(response.status, response.text).toBe(200);
        const text = response.text.toLowerCase();
        sawOwnRealm ||= text.includes('bravo');
        leaks.push(...w.alphaMarkers.filter((m) => text.includes(m.toLowerCase())).map((m) => `${user.fullName}'s queue: ${m}`));
      }
      expect(leaks).toEqual([]);
      expect(sawOwnRealm).toBe(true);
    });
  });
}

async function runEntry(w: MatrixWorld, { key, auth, rule }: MatrixEntry & { rule: Rule }): Promise<Findings> {
  const { alpha, bravo } = w;
  const findings = new Findings();
  // Keys change (regenerate routes), so credentials are read fresh for every request.
  const fresh = async (user: User): Promise<Credentials> => (await w.ctx.storage.read((tx) => tx.users.byId(user.realmId, user.id))) ?? user;
  // The owner is in the private channel and the direct message, so their contents are theirs to see.
  const ownersOwn = [`${alpha.tag} private secret`, `${alpha.tag} direct secret`];
  // Guests and spectators see nothing of a public channel they are not in (ref: guests' channel access).
  const lobby = [alpha.lobbyChannel.name, `${alpha.tag} lobby note`];
  const markersFor = (caller: string) =>
    caller === 'owner' ? w.victimMarkers.filter((m) => !ownersOwn.includes(m)) : caller === 'guest' || caller === 'spectator' ? [...w.victimMarkers, ...lobby] : w.victimMarkers;
  const send = async (who: string, credentials: Credentials, request: ReturnType<Rule['request']>) => {
    const response = await w.send(alpha.host, credentials, request);
    findings.envelope(who, request, response);
    findings.noLeak(who, request, response, w.bravoMarkers, 'the other realm');
    findings.noLeak(who, request, response, markersFor(who), 'another user’s private data');
    return response;
  };

  // Another realm's IDs: the same answer as IDs that exist nowhere, and none of that realm's data.
  const own = describeRequest(rule.request(alpha, alpha.users.owner));
  if (own !== describeRequest(rule.request(bravo, bravo.users.owner)) && !rule.namesOnly) {
    const unknown = unknownIds(alpha);
    for (const caller of ['member', 'owner'] as const) {
      const creds = await fresh(alpha.users[caller].user);
      const foreign = await send(caller, creds, rule.request(bravo, bravo.users[caller]));
      const none = await send(caller, creds, rule.request(unknown, unknown.users[caller]));
      if (answerOf(foreign) !== answerOf(none)) {
        findings.add(caller, rule.request(bravo, bravo.users[caller]), foreign, `another realm's IDs answer ${answerOf(foreign)}, unknown IDs ${answerOf(none)}`);
      }
    }
  }

  // Another user's objects, where the request names the caller's own.
  const namesOwnObjects = describeRequest(rule.request(alpha, alpha.users.member)) !== describeRequest(rule.request(alpha, alpha.victim));
  if (namesOwnObjects && rule.otherUser !== 'n/a') {
    if (rule.otherUser === undefined) findings.lines.push(`${key}: the request names the caller's own objects; set otherUser in its row`);
    for (const caller of CALLERS) {
      const request = rule.request(alpha, alpha.victim);
      const response = await send(caller, await fresh(alpha.users[caller].user), request);
      if (!mayReachOthers(rule, caller)) findings.denied(caller, request, response, `${caller} may not reach another user's object`);
    }
  }

  if (auth !== 'none') {
    const request = rule.request(alpha, alpha.users.member);
    // API 5.4 and the reference's 401s: a deactivated account, a wrong key.
    const deactivated = await send('deactivated', alpha.deactivated, request);
    if (deactivated.status !== 401 || deactivated.body?.msg !== 'Account is deactivated') {
      findings.add('deactivated', request, deactivated, 'expected 401 "Account is deactivated"');
    }
    const wrong = await send('bad credentials', `Basic ${Buffer.from(`${alpha.users.owner.user.deliveryEmail}:${WRONG_KEY}`).toString('base64')}`, request);
    if (wrong.status !== 401 || wrong.body?.code !== 'UNAUTHORIZED') findings.add('bad credentials', request, wrong, 'expected 401 UNAUTHORIZED');
    // Valid credentials of the other realm's user are no credentials here (FACTS 3.2).
    const foreign = await send('other realm’s user', await fresh(bravo.users.owner.user), request);
    if (foreign.status !== 401 || foreign.body?.msg !== 'Account is not associated with this subdomain') {
      findings.add('other realm’s user', request, foreign, 'expected 401 "Account is not associated with this subdomain"');
    }
  }

  // Spectators (no credentials): only what web-public access allows.
  const spectatorRequest = rule.request(alpha, alpha.victim);
  const spectator = await send('spectator', null, spectatorRequest);
  // Nothing but web-public channels reaches a spectator: not even the public channel's name.
  findings.noLeak('spectator', spectatorRequest, spectator, [alpha.publicChannel.name, alpha.privateChannel.name], 'what is not web-public');
  if (spectatorAllowed(rule)) {
    if (!rule.neverSucceeds && spectator.status !== 200) findings.add('spectator', spectatorRequest, spectator, 'expected success');
  } else if (auth === 'required' && spectator.status !== 401) {
    findings.add('spectator', spectatorRequest, spectator, 'expected 401 (API 5.4)');
  } else {
    findings.denied('spectator', spectatorRequest, spectator, 'spectators may not call it');
  }

  // Every role on its own objects: the ones below the row's callers are refused; the least
  // privileged allowed caller succeeds (which proves the request itself is valid).
  const proof = spectatorAllowed(rule) ? undefined : firstAllowed(rule);
  // Operations without identity ignore credentials: one caller shows they are ignored.
  for (const caller of auth === 'none' ? (['owner'] as const) : CALLERS) {
    const request = rule.request(alpha, alpha.users[caller]);
    const response = await send(caller, await fresh(alpha.users[caller].user), request);
    if (!mayCall(rule, caller)) findings.denied(caller, request, response, `${caller} is below ${JSON.stringify(rule.allow)} (${rule.why})`);
    else if (caller === proof && !rule.neverSucceeds && response.status !== 200) findings.add(caller, request, response, `expected success (${rule.why})`);
  }
  return findings;
}
