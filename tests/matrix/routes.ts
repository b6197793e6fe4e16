/**
 * The matrix's view of the route table: every `METHOD path` of ROUTES with its operation's auth
 * mode and its row of the expectations table, grouped into the families that share a world.
 */
import { ROUTES } from '@teamchat/http-adapter';
import { type Caller, EXPECTATIONS, type Level, type Rule } from './expectations.js';

export interface MatrixEntry {
  key: string;
  auth: 'required' | 'optional' | 'none';
  rule: Rule | undefined;
}

/** Every method of every route, in table order. */
export const ENTRIES: MatrixEntry[] = ROUTES.flatMap((route) =>
  Object.entries(route.methods).map(([method, operation]) => {
    const key = `${method} ${route.path}`;
    return { key, auth: operation!.auth, rule: EXPECTATIONS[key] };
  }),
);

/** Entries grouped by family, in table order within each; routes without a row are left out. */
export function families(): Map<string, (MatrixEntry & { rule: Rule })[]> {
  const out = new Map<string, (MatrixEntry & { rule: Rule })[]>();
  for (const entry of ENTRIES) {
    if (!entry.rule) continue;
    const name = entry.rule.family ?? 'shared';
    out.set(name, [...(out.get(name) ?? []), entry as MatrixEntry & { rule: Rule }]);
  }
  return out;
}

/** Callers in the order the matrix sends as them: least privileged first, so denials run before any success. */
export const CALLERS: readonly Caller[] = ['guest', 'bot', 'member', 'moderator', 'admin', 'owner'];

const LEVEL_RANK: Record<Level, number> = { anyone: 0, spectator: 1, guest: 2, member: 3, moderator: 4, admin: 5, owner: 6 };
const CALLER_RANK: Record<Caller, number> = { guest: 2, bot: 3, member: 3, moderator: 4, admin: 5, owner: 6 };

/** Whether `caller` may succeed at the route. */
export function mayCall(rule: Rule, caller: Caller): boolean {
  if (Array.isArray(rule.allow)) return rule.allow.includes(caller);
  if (caller === 'bot' && rule.bots === false) return false;
  return CALLER_RANK[caller] >= LEVEL_RANK[rule.allow];
}

/** Whether `caller` may name another user's object where the route names the caller's own. */
export function mayReachOthers(rule: Rule, caller: Caller): boolean {
  const other = rule.otherUser;
  if (other === undefined || other === 'denied' || other === 'n/a') return false;
  if (other === 'allowed') return mayCall(rule, caller);
  return mayCall(rule, caller) && CALLER_RANK[caller] >= LEVEL_RANK[other];
}

/** The caller whose success proves the row's request is valid: the least privileged allowed one. */
export function firstAllowed(rule: Rule): Caller | undefined {
  // A bot is a member-role account; it proves the request only where the row names bots.
  return CALLERS.find((c) => mayCall(rule, c) && (c !== 'bot' || Array.isArray(rule.allow)));
}

export const spectatorAllowed = (rule: Rule) => rule.allow === 'spectator' || rule.allow === 'anyone';
