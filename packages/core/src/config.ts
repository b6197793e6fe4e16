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
  /** Whether a request carrying an unknown Host is served by the default realm. */
  defaultRealmSubdomain: string;
}

export const DEFAULT_CONFIG: ServerConfig = {
  featureLevel: 512,
  version: '13.0-dev-teamchat-0.1.0',
  mergeBase: '13.0-dev-teamchat-0.1.0',
  pushNotificationsEnabled: false,
  maxMessageLength: 10000,
  maxTopicLength: 60,
  maxRequestBodyBytes: 25 * 1024 * 1024,
  defaultRealmSubdomain: '',
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
