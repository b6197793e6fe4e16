export { createClient, type Client, type ClientOptions, type EndpointMethods, type FetchedApiKey } from './client.js';
export { ApiError, ConnectionError, isTransient } from './errors.js';
export {
  EventQueue,
  type EventQueueOptions,
  type QueueItem,
  type RegisterParams,
  type RegisterState,
  type ReregisteredNotice,
} from './event-queue.js';
export { type BackoffOptions, backoffDelay } from './backoff.js';
export { type CallOptions, API_PREFIX } from './request.js';
export { ENDPOINTS, type Endpoints } from './generated/endpoints.js';
export type { Endpoint, EndpointSpec, FileEndpoint, HttpMethod, SuccessEnvelope } from './endpoint.js';
export type { ApiEvent, InputOf, QueuedEvent, ResultOf } from './core-types.js';
