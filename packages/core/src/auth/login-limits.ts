import { isIPv4, isIPv6 } from 'node:net';
import type { Clock } from '../clock.js';
import type { ServerConfig } from '../config.js';
import { SlidingWindowCounter } from './sliding-window.js';

/** One password login attempt: which account it names and where it comes from. */
export interface LoginAttempt {
  realmId: number;
  email: string;
  /** The client's address as the transport saw it; absent for in-process callers. */
  clientIp?: string | null;
}

/** A change to the login limits made on one node, which every other node applies too. */
export interface LoginAttemptChange {
  op: 'begin' | 'succeeded';
  attempt: LoginAttempt;
}

/**
 * How nodes sharing a database share their login limits: each node sends the changes its
 * limiter makes and applies those of the others, so a guesser spreading attempts over nodes
 * meets the same limits as one talking to a single node. Changes travel within milliseconds
 * (PostgreSQL NOTIFY): a burst of concurrent guesses at several nodes can get that many more
 * attempts through, once. Limits held in memory reset when every node has restarted.
 */
export interface LoginAttemptFeed {
  /** Sends a change made here to the other nodes (not back to this one). */
  send(change: LoginAttemptChange): void;
  /** Receives the changes of the other nodes; called once, by the limiter. */
  receive(listener: (change: LoginAttemptChange) => void): void;
}

/** Addresses remembered per account as having logged in to it (newest last). */
const KNOWN_SOURCES_PER_ACCOUNT = 10;

/**
 * Limits on password guessing (POST /fetch_api_key). Every attempt counts when it starts, so
 * that concurrent guesses count too; a successful login takes its attempt back. Three limits:
 * - per account and address (the reference's 5 per 30 minutes per username, scoped to the
 *   address: a guesser elsewhere does not lock the owner out by itself);
 * - per address, over all accounts (one guess each at many accounts);
 * - per account over all addresses, a higher ceiling against guessing spread over many
 *   addresses; addresses that logged in to the account since the server started are exempt.
 */
export class LoginLimiter {
  private readonly perSource: SlidingWindowCounter;
  private readonly perIp: SlidingWindowCounter;
  private readonly perAccount: SlidingWindowCounter;
  private readonly knownSources = new Map<string, string[]>();
  private readonly maxKeys: number;

  private readonly feed: LoginAttemptFeed | undefined;

  constructor(clock: Clock, config: ServerConfig, feed?: LoginAttemptFeed) {
    const windowMs = config.loginFailureWindowSeconds * 1000;
    this.maxKeys = config.loginLimiterMaxKeys;
    this.perSource = new SlidingWindowCounter(clock, config.loginFailureLimit, windowMs, this.maxKeys);
    this.perIp = new SlidingWindowCounter(clock, config.loginFailureLimitPerIp, windowMs, this.maxKeys);
    this.perAccount = new SlidingWindowCounter(clock, config.loginFailureLimitPerAccount, windowMs, this.maxKeys);
    this.feed = feed;
    feed?.receive((change) => (change.op === 'begin' ? this.countBegin(change.attempt) : this.countSuccess(change.attempt)));
  }

  /** Seconds until this attempt may be made, or 0 when no limit stops it. */
  retryAfter(attempt: LoginAttempt): number {
    const keys = keysOf(attempt);
    const waits = [this.perSource.retryAfter(keys.source)];
    if (keys.ip !== null) waits.push(this.perIp.retryAfter(keys.ip));
    if (!this.isKnownSource(keys)) waits.push(this.perAccount.retryAfter(keys.account));
    return Math.max(...waits);
  }

  /** Counts the attempt against every limit; call before checking the password. */
  begin(attempt: LoginAttempt): void {
    this.countBegin(attempt);
    this.feed?.send({ op: 'begin', attempt: plainAttempt(attempt) });
  }

  /** The attempt logged in: it no longer counts, earlier failures from there are forgotten (as the reference does). */
  succeeded(attempt: LoginAttempt): void {
    this.countSuccess(attempt);
    this.feed?.send({ op: 'succeeded', attempt: plainAttempt(attempt) });
  }

  private countBegin(attempt: LoginAttempt): void {
    const keys = keysOf(attempt);
    this.perSource.record(keys.source);
    if (keys.ip !== null) this.perIp.record(keys.ip);
    this.perAccount.record(keys.account);
  }

  private countSuccess(attempt: LoginAttempt): void {
    const keys = keysOf(attempt);
    this.perSource.clear(keys.source);
    if (keys.ip !== null) this.perIp.unrecord(keys.ip);
    this.perAccount.unrecord(keys.account);
    const sources = (this.knownSources.get(keys.account) ?? []).filter((ip) => ip !== keys.ip);
    sources.push(keys.ip ?? '');
    this.knownSources.delete(keys.account);
    this.knownSources.set(keys.account, sources.slice(-KNOWN_SOURCES_PER_ACCOUNT));
    if (this.knownSources.size > this.maxKeys) this.knownSources.delete(this.knownSources.keys().next().value!);
  }

  private isKnownSource(keys: AttemptKeys): boolean {
    return this.knownSources.get(keys.account)?.includes(keys.ip ?? '') ?? false;
  }
}

/** Only the attempt's own fields travel (callers may pass richer objects). */
const plainAttempt = ({ realmId, email, clientIp }: LoginAttempt): LoginAttempt => ({ realmId, email, clientIp: clientIp ?? null });

interface AttemptKeys {
  account: string;
  source: string;
  ip: string | null;
}

function keysOf(attempt: LoginAttempt): AttemptKeys {
  const account = `${attempt.realmId}:${attempt.email.trim().toLowerCase()}`;
  const ip = attempt.clientIp ? addressKey(attempt.clientIp) : null;
  return { account, source: `${account}@${ip ?? ''}`, ip };
}

/**
 * The unit one client controls: an IPv4 address, or the /64 prefix of an IPv6 address (one
 * host usually holds a whole /64, so per-address limits on full IPv6 addresses are no limit).
 */
export function addressKey(ip: string): string {
  const address = ip.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) return mapped[1]!;
  if (isIPv4(address) || !isIPv6(address)) return address;
  const [head = '', tail] = address.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  return `${groups.slice(0, 4).map((g) => Number.parseInt(g, 16).toString(16)).join(':')}::/64`;
}
