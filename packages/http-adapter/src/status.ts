import type { ApiError, ErrorCode, ErrorVariant } from '@teamchat/core';

/** The reference server's HTTP status for each error code: the one map from core errors to HTTP. */
const STATUS_BY_CODE: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  REQUEST_VARIABLE_MISSING: 400,
  REQUEST_VARIABLE_INVALID: 400,
  REQUEST_CONFUSING_VAR: 400,
  INVALID_JSON: 400,
  UNAUTHORIZED: 401,
  UNAUTHORIZED_PRINCIPAL: 400,
  AUTHENTICATION_FAILED: 401,
  USER_DEACTIVATED: 401,
  REALM_DEACTIVATED: 401,
  PASSWORD_AUTH_DISABLED: 401,
  NONEXISTENT_SUBDOMAIN: 404,
  NOT_FOUND: 404,
  STREAM_DOES_NOT_EXIST: 400,
  CHANNEL_ALREADY_EXISTS: 400,
  INVITATION_FAILED: 400,
  /** The reference's INVALID_ZOOM_TOKEN, renamed as API.md renames zoom to videoprovider. */
  INVALID_VIDEOPROVIDER_TOKEN: 400,
  REACTION_ALREADY_EXISTS: 400,
  REACTION_DOES_NOT_EXIST: 400,
  MOVE_MESSAGES_TIME_LIMIT_EXCEEDED: 400,
  /** A group setting's `old` value is not its current value (PreviousSettingValueMismatchedError). */
  EXPECTATION_MISMATCH: 400,
  BAD_EVENT_QUEUE_ID: 400,
  BAD_NARROW: 400,
  CANNOT_DEACTIVATE_LAST_USER: 400,
  CANNOT_DEACTIVATE_GROUP_IN_USE: 400,
  RATE_LIMIT_HIT: 429,
  PAYLOAD_TOO_LARGE: 413,
  METHOD_NOT_ALLOWED: 405,
  INTERNAL_SERVER_ERROR: 500,
  /** E2EE push registration without a way to reach the push service (a notifier with registerDevice). */
  PUSH_SERVICE_NOT_CONFIGURED: 400,
  INVALID_PUSH_DEVICE_TOKEN: 400,
  NO_ACTIVE_PUSH_DEVICE: 400,
};

/** Variants the reference answers with their own status, whatever the code. */
const STATUS_BY_VARIANT: Record<ErrorVariant, number> = {
  not_found: 404,
  forbidden: 403,
  timeout: 408,
  conflict: 409,
};

/** The HTTP status of an error's answer. */
export function httpStatus(error: ApiError): number {
  return error.variant ? STATUS_BY_VARIANT[error.variant] : STATUS_BY_CODE[error.code];
}
