import { REFERENCE_RATE_LIMIT_RULES, type RateLimitRules } from './rate-limits/rules.js';

/** Server-wide settings and the API's published limits. */
export interface ServerConfig {
  /** API level; 512 covers every change listed in API.md section 9. */
  featureLevel: number;
  version: string;
  mergeBase: string;
  pushNotificationsEnabled: boolean;
  /** Code points; longer message content is truncated. */
  maxMessageLength: number;
  maxTopicLength: number;
  /** Largest accepted request body, in bytes. */
  maxRequestBodyBytes: number;
  /** Subdomain of the realm that serves requests whose Host names no realm. */
  defaultRealmSubdomain: string;
  /** Recommended client HTTP timeout for GET /events; above the heartbeat delay. */
  eventQueueLongpollTimeoutSeconds: number;
  /** A blocked GET /events gets a heartbeat after this many seconds (plus jitter). */
  heartbeatSeconds: number;
  heartbeatJitterSeconds: number;
  /** Idle lifetime of a queue unless register asks otherwise; "mobile" and the cap (FL 481). */
  idleQueueTimeoutSeconds: number;
  mobileIdleQueueTimeoutSeconds: number;
  maxIdleQueueTimeoutSeconds: number;
  queueGcIntervalSeconds: number;
  /**
   * Unacknowledged events one queue may hold. A queue that would hold more is ended (its client
   * gets BAD_EVENT_QUEUE_ID and re-registers) rather than trimmed, so that no event is lost unseen.
   */
  maxQueueLength: number;
  /**
   * Approximate bytes (JSON length plus a fixed overhead per event) of unacknowledged events one
   * queue may hold; over it, the queue is ended as above. The reference has no such bound.
   */
  maxQueueBytes: number;
  /**
   * Event queues one user may have. Registering one more ends the user's least recently used
   * queue. The reference has no cap (only idle expiry); one queue per open tab or device fits well below.
   */
  maxQueuesPerUser: number;
  /** Queues one event is copied into per turn of the event loop: a large fan-out yields to other requests. */
  eventFanoutBatchSize: number;
  typingStartedWaitPeriodMs: number;
  typingStoppedWaitPeriodMs: number;
  typingStartedExpiryPeriodMs: number;
  /** Arm real timers for heartbeats and queue collection (tests drive a fake clock instead). */
  timers: boolean;
  /**
   * Failed password logins allowed per email from one client address within the window, then 429
   * (the reference: 5 per 30 min per email). Scoped to the address so that a guesser elsewhere
   * cannot lock the owner out by itself (auth/login-limits.ts).
   */
  loginFailureLimit: number;
  loginFailureWindowSeconds: number;
  /** Failed password logins allowed from one client address, whatever the emails, within the window. */
  loginFailureLimitPerIp: number;
  /**
   * Failed logins for one email from all addresses together within the window, against guessing
   * spread over many addresses; addresses that logged in to the account since the server started are exempt.
   */
  loginFailureLimitPerAccount: number;
  /** Distinct limiter keys kept in memory; the oldest are forgotten first past this. */
  loginLimiterMaxKeys: number;
  /**
   * Whether API requests are rate limited (rate-limits/check.ts): per user, and per client
   * address for requests without a user. Off in a context unless turned on here, so that
   * in-process callers and test servers are never refused; `teamchat serve` turns it on
   * (`--no-rate-limits` leaves it off).
   */
  rateLimiting: boolean;
  /** The rules of each domain when rate limiting is on; the reference's by default (200/min per user, 100/min per address). */
  rateLimitRules: RateLimitRules;
  /** Buckets the in-memory rate limiter keeps; past this the least recently hit are forgotten. */
  rateLimiterMaxKeys: number;
  /**
   * scrypt cost for new password hashes (OWASP's minimum: N=2^17, r=8, p=1). Hashes stored with
   * a weaker cost are rehashed at the next successful login. Tests lower it to stay fast.
   */
  passwordHashCost: { N: number; r: number; p: number };
  /** Password derivations run at once (each holds 128·N·r bytes and a thread-pool thread). */
  passwordHashConcurrency: number;
  /** Logins allowed to wait for a derivation; past this a login gets 429 at once. */
  passwordHashMaxWaiting: number;
  /**
   * Reverse proxies in front of the server that append to X-Forwarded-For. 0 (the default): the
   * header is ignored and the client address is the connection's peer; n: the n-th address
   * from the right of the header is the client's.
   */
  trustedProxyHops: number;
  /** POST /streams/{id}/delete_topic starts no new batch once a request has run this long (the reference: 50 s). */
  deleteTopicTimeBudgetMs: number;
  /** Largest file POST /user_uploads accepts (register `max_file_upload_size_mib`; the reference: 100). */
  maxFileUploadSizeMib: number;
  /** Largest image POST /users/me/avatar accepts (register `max_avatar_file_size_mib`; the reference: 5). */
  maxAvatarFileSizeMib: number;
  /**
   * Nobody but administrators may change avatars, in every realm (the reference's AVATAR_CHANGES_DISABLED,
   * register `server_avatar_changes_disabled`); realms can also decide so themselves (`avatar_changes_disabled`).
   */
  avatarChangesDisabled: boolean;
  /** Uploads no message links are deleted once this old (API.md 4.20: "a few weeks"). */
  unusedUploadGraceSeconds: number;
  /** How often the HTTP server's sweep looks for such uploads. */
  uploadSweepIntervalSeconds: number;
  /** Lifetime of an invitation created without invite_expires_in_minutes (the reference: 10 days). */
  invitationLinkValidityMinutes: number;
  /** Code points a reminder's note may have (register `max_reminder_note_length`, FL 415). */
  maxReminderNoteLength: number;
  /** Characters (keys plus values) one user's /bot_storage may hold (the reference's USER_STATE_SIZE_LIMIT). */
  botStorageSizeLimit: number;
  /** How often clients should report presence (register `server_presence_ping_interval_seconds`). */
  presencePingIntervalSeconds: number;
  /** A user whose last report is older than this shows as offline (`server_presence_offline_threshold_seconds`). */
  presenceOfflineThresholdSeconds: number;
  /**
   * How often presence kept in memory is written to the store, in one transaction; a crash
   * loses at most this much presence (a clean close writes it all).
   */
  presenceFlushIntervalSeconds: number;
  /** A realm with more users than this gets no "came online" presence events (the reference: 100). */
  presenceEventUserLimit: number;
}

/** The configuration a context has unless `createContext({ config })` overrides fields of it. */
export const DEFAULT_CONFIG: ServerConfig = {
  featureLevel: 512,
  version: '13.0-dev-teamchat-0.1.0',
  mergeBase: '13.0-dev-teamchat-0.1.0',
  pushNotificationsEnabled: false,
  maxMessageLength: 10000,
  maxTopicLength: 60,
  maxRequestBodyBytes: 25 * 1024 * 1024,
  defaultRealmSubdomain: '',
  eventQueueLongpollTimeoutSeconds: 90,
  heartbeatSeconds: 45,
  heartbeatJitterSeconds: 10,
  idleQueueTimeoutSeconds: 600,
  mobileIdleQueueTimeoutSeconds: 12 * 60 * 60,
  maxIdleQueueTimeoutSeconds: 7 * 24 * 60 * 60,
  queueGcIntervalSeconds: 60,
  maxQueueLength: 10000,
  maxQueueBytes: 4 * 1024 * 1024,
  maxQueuesPerUser: 32,
  eventFanoutBatchSize: 1000,
  typingStartedWaitPeriodMs: 30000,
  typingStoppedWaitPeriodMs: 12000,
  typingStartedExpiryPeriodMs: 45000,
  timers: true,
  loginFailureLimit: 5,
  loginFailureWindowSeconds: 1800,
  loginFailureLimitPerIp: 30,
  loginFailureLimitPerAccount: 100,
  loginLimiterMaxKeys: 100_000,
  rateLimiting: false,
  rateLimitRules: REFERENCE_RATE_LIMIT_RULES,
  rateLimiterMaxKeys: 100_000,
  passwordHashCost: { N: 2 ** 17, r: 8, p: 1 },
  passwordHashConcurrency: 2,
  passwordHashMaxWaiting: 64,
  trustedProxyHops: 0,
  deleteTopicTimeBudgetMs: 50000,
  maxFileUploadSizeMib: 100,
  maxAvatarFileSizeMib: 5,
  avatarChangesDisabled: false,
  unusedUploadGraceSeconds: 21 * 24 * 60 * 60,
  uploadSweepIntervalSeconds: 60 * 60,
  invitationLinkValidityMinutes: 14400,
  // The reference's MAX_REMINDER_NOTE_LENGTH; SHAPES.md marks the value unverified.
  maxReminderNoteLength: 1000,
  botStorageSizeLimit: 10_000_000,
  presencePingIntervalSeconds: 60,
  presenceOfflineThresholdSeconds: 140,
  presenceFlushIntervalSeconds: 15,
  presenceEventUserLimit: 100,
};

/** Reference limits that apply to users. */
export const USER_LIMITS = {
  fullNameMax: 100,
  /** The reference's UserProfile.MIN_NAME_LENGTH. */
  fullNameMin: 2,
  passwordMin: 6,
  passwordMax: 100,
  deactivationCommentMax: 2000,
} as const;
