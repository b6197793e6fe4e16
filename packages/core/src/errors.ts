/**
 * The closed set of API errors. Every failure the core reports is an ApiError built by one of the
 * constructors below. Core knows no transport: the HTTP adapter maps each code (and variant) to
 * the reference server's status (http-adapter/src/status.ts).
 */
export const ERROR_CODES = [
  'BAD_REQUEST',
  'REQUEST_VARIABLE_MISSING',
  'REQUEST_VARIABLE_INVALID',
  'REQUEST_CONFUSING_VAR',
  'INVALID_JSON',
  'UNAUTHORIZED',
  'UNAUTHORIZED_PRINCIPAL',
  'AUTHENTICATION_FAILED',
  'USER_DEACTIVATED',
  'REALM_DEACTIVATED',
  'PASSWORD_AUTH_DISABLED',
  'NONEXISTENT_SUBDOMAIN',
  'NOT_FOUND',
  'STREAM_DOES_NOT_EXIST',
  'CHANNEL_ALREADY_EXISTS',
  'INVITATION_FAILED',
  /** The reference's INVALID_ZOOM_TOKEN, renamed as API.md renames zoom to videoprovider. */
  'INVALID_VIDEOPROVIDER_TOKEN',
  'REACTION_ALREADY_EXISTS',
  'REACTION_DOES_NOT_EXIST',
  'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
  /** A group setting's `old` value is not its current value (PreviousSettingValueMismatchedError). */
  'EXPECTATION_MISMATCH',
  'BAD_EVENT_QUEUE_ID',
  'BAD_NARROW',
  'CANNOT_DEACTIVATE_LAST_USER',
  'CANNOT_DEACTIVATE_GROUP_IN_USE',
  'RATE_LIMIT_HIT',
  'PAYLOAD_TOO_LARGE',
  'METHOD_NOT_ALLOWED',
  'INTERNAL_SERVER_ERROR',
  /** E2EE push registration without a way to reach the push service (a notifier with registerDevice). */
  'PUSH_SERVICE_NOT_CONFIGURED',
  'INVALID_PUSH_DEVICE_TOKEN',
  'NO_ACTIVE_PUSH_DEVICE',
] as const;

/** The `code` of an error response: one of ERROR_CODES. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * A refinement of a code that the reference tells apart by transport status only: a
 * BAD_REQUEST that is about a missing resource, a refused access or a slow client, or a
 * CHANNEL_ALREADY_EXISTS from the endpoint that answers it as a conflict.
 */
export type ErrorVariant = 'not_found' | 'forbidden' | 'timeout' | 'conflict';

/** An API failure: what the client sees as `{result: "error", code, msg, ...data}`. */
export class ApiError {
  constructor(
    readonly code: ErrorCode,
    readonly msg: string,
    /** Extra top-level fields of the error body (for example `var_name`, `stream_id`). */
    readonly data: Readonly<Record<string, unknown>> = {},
    /** See ErrorVariant; absent for the code's usual meaning. */
    readonly variant?: ErrorVariant,
  ) {}
}

/**
 * The reference's ValidationFailureError (a model's full_clean failing): the first message, and
 * `errors` mapping each field (`__all__` for rules across fields) to its messages. Not empty.
 */
export const validationFailure = (errors: Readonly<Record<string, readonly string[]>>) =>
  badRequest(Object.values(errors)[0]![0]!, { errors });

/** Generic validation or permission failure. */
export const badRequest = (msg: string, data?: Record<string, unknown>) => new ApiError('BAD_REQUEST', msg, data);
/** A full-text search past the storage driver's budget of candidate rows (storage SearchTooBroadError). */
export const searchTooBroad = () => badRequest('This search matches too many messages; use more specific words.');

/** A resource the caller named does not exist: code BAD_REQUEST, answered as not found (HTTP 404) as the reference does. */
export const resourceNotFound = (msg: string) => new ApiError('BAD_REQUEST', msg, {}, 'not_found');

/** "Access denied": code BAD_REQUEST, answered as forbidden (HTTP 403). */
export const accessDenied = (msg = 'Access denied') => new ApiError('BAD_REQUEST', msg, {}, 'forbidden');

export const missingArgument = (name: string) =>
  new ApiError('REQUEST_VARIABLE_MISSING', `Missing '${name}' argument`, { var_name: name });

/** No usable identity: not logged in, or credentials the realm does not accept (HTTP 401). */
export const unauthorized = (msg = 'Not logged in: API authentication or user session required') =>
  new ApiError('UNAUTHORIZED', msg);

export const mustBeAdmin = () => new ApiError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
export const mustBeOwner = () => new ApiError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
export const insufficientPermission = () => badRequest('Insufficient permission');

export const authenticationFailed = () =>
  new ApiError('AUTHENTICATION_FAILED', 'Your username or password is incorrect');
export const userDeactivated = () => new ApiError('USER_DEACTIVATED', 'Account is deactivated');
export const realmDeactivated = () => new ApiError('REALM_DEACTIVATED', 'This organization has been deactivated');

/** No such endpoint or resource (code NOT_FOUND, HTTP 404). */
export const notFound = (msg = 'Not found') => new ApiError('NOT_FOUND', msg);
/** The endpoint exists, not with this HTTP method (HTTP 405). */
export const methodNotAllowed = () => new ApiError('METHOD_NOT_ALLOWED', 'Method Not Allowed');
/** A request body over the configured limit (HTTP 413). */
export const payloadTooLarge = (limitBytes: number) =>
  new ApiError('PAYLOAD_TOO_LARGE', `Request body is too large (limit: ${limitBytes} bytes)`);
/** The client took too long to send its request (HTTP 408 in the adapter). */
export const requestTimeout = () => new ApiError('BAD_REQUEST', 'Request timeout', {}, 'timeout');
/** An unexpected failure, reported to the logger and answered without details (HTTP 500). */
export const internalError = () => new ApiError('INTERNAL_SERVER_ERROR', 'Internal server error');

export const noSuchUser = () => badRequest('No such user');

/** POST /calls/videoprovider/create without a configured provider (FACTS.md 6.10's Zoom wording, generalised). */
export const videoProviderNotConfigured = () => badRequest('Video call provider credentials have not been configured');
/** The user has not linked the provider's account, or the provider rejected it (FACTS.md 6.10). */
export const invalidVideoProviderToken = () =>
  new ApiError('INVALID_VIDEOPROVIDER_TOKEN', 'Invalid video call provider access token');

/** A human-only endpoint called with a bot's credentials. */
export const botsNotAllowed = () => badRequest('This endpoint does not accept bot requests.');

/** Guests on endpoints the reference closes to them (require_non_guest_user). */
export const notAllowedForGuests = () => badRequest('Not allowed for guest users');

/** A channel named by name does not exist (or the caller may not know it does). */
export const streamDoesNotExist = (name: string) =>
  new ApiError('STREAM_DOES_NOT_EXIST', `Channel '${name}' does not exist`, { stream: name });

/** A channel named by ID does not exist (or the caller may not know it does). */
export const streamIdDoesNotExist = (streamId: number) =>
  new ApiError('STREAM_DOES_NOT_EXIST', `Channel with ID '${streamId}' does not exist`, { stream_id: streamId });

/** Creating or renaming a channel to a name another channel has (in any case). */
export const channelAlreadyExists = (name: string) =>
  new ApiError('CHANNEL_ALREADY_EXISTS', `Channel '${name}' already exists`);

/** The same refusal from POST /channels/create, which the reference answers as a conflict (HTTP 409). */
export const channelAlreadyExistsConflict = (name: string) =>
  new ApiError('CHANNEL_ALREADY_EXISTS', `Channel '${name}' already exists`, {}, 'conflict');

/** 429; `retry-after` (seconds) is also sent as the Retry-After header. */
export const rateLimited = (retryAfterSeconds: number) =>
  new ApiError('RATE_LIMIT_HIT', 'API usage exceeded rate limit', { 'retry-after': retryAfterSeconds });

/** The reference's IncompatibleParametersError: parameters that may not be given together. */
export const incompatibleParameters = (names: readonly string[]) =>
  badRequest(`Unsupported parameter combination: ${names.join(', ')}`, { parameters: names.join(', ') });
/** A `{new, old}` group-setting change whose `old` is not the setting's current value. */
export const settingValueMismatch = () => new ApiError('EXPECTATION_MISMATCH', "'old' value does not match the expected value.");
/** One refused invitee: [email, reason, whether the address belongs to a deactivated account]. */
export type InviteeError = [email: string, reason: string, deactivated: boolean];

/** POST /invites refused some addresses (FACTS.md 6.4); `sentInvitations` when the others were invited. */
export const invitationFailed = (msg: string, errors: InviteeError[], sentInvitations: boolean) =>
  new ApiError('INVITATION_FAILED', msg, {
    errors,
    sent_invitations: sentInvitations,
    license_limit_reached: false,
    daily_limit_reached: false,
  });

/** A user group still named by a setting or a supergroup (FL 298); `objections` says where (access/user-group-usage.ts). */
export const groupInUse = (objections: readonly Record<string, unknown>[]) =>
  new ApiError('CANNOT_DEACTIVATE_GROUP_IN_USE', 'Cannot deactivate user group in use.', { objections });

/** POST /users/me/status with none of status_text, away and emoji_name. */
export const noNewStatusValues = () => badRequest('Client did not pass any new values.');
/** POST /users/me/status with an emoji code or type but no emoji name. */
export const statusEmojiNameRequired = () =>
  badRequest('Client must pass emoji_name if they pass either emoji_code or reaction_type.');

/** Muting oneself, muting a user twice, unmuting a user who is not muted (the reference's texts). */
export const cannotMuteSelf = () => badRequest('Cannot mute self');
export const userAlreadyMuted = () => badRequest('User already muted');
export const userNotMuted = () => badRequest('User is not muted');

/** GET /messages/{message_id}/read_receipts in a realm whose enable_read_receipts is off. */
export const readReceiptsDisabled = () => badRequest('Read receipts are disabled in this organization.');

/** POST /submessage: the first submessage of a message must come from its sender (verify_submessage_sender). */
export const cannotAttachSubmessage = () => badRequest('You cannot attach a submessage to this message.');

/** POST /submessage on a message that holds the most submessages one may (schemas/submessages.ts). */
export const tooManySubmessages = (max: number) => badRequest(`A message can have at most ${max} submessages.`);

/** POST /submessage: `content` is not JSON. */
export const invalidSubmessageJson = () => badRequest('Invalid json for submessage');

/** PATCH /messages/{id}: a poll or to-do list keeps its content (the reference's check_update_message). */
export const widgetsCannotBeEdited = () => badRequest('Widgets cannot be edited.');

/** POST /messages/{id}/report with report_type "other" and no description. */
export const reportExplanationRequired = () => badRequest('An explanation is required.');

/** POST /messages/{id}/report while the realm has no moderation request channel. */
export const messageReportingDisabled = () => badRequest('Message reporting is not enabled in this organization.');

/** POST /messages/{id}/report when the report could not be posted (FL 511). */
export const messageReportFailed = () => badRequest('Failed to send the message report.');

/** A test notification to a token the user has not registered (the reference's InvalidPushDeviceTokenError). */
export const invalidPushDeviceToken = () => new ApiError('INVALID_PUSH_DEVICE_TOKEN', 'Device not recognized');

/** An E2EE test notification with no registered E2EE device to go to (the reference's NoActivePushDeviceError). */
export const noActivePushDevice = () => new ApiError('NO_ACTIVE_PUSH_DEVICE', 'No active registered push device');

/** POST /mobile_push/register on a server that cannot complete E2EE registrations (the reference's PushServiceNotConfiguredError). */
export const pushServiceNotConfigured = () =>
  new ApiError('PUSH_SERVICE_NOT_CONFIGURED', 'Server is not configured to use push notification service.');
