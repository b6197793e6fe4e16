export { createApp, API_PREFIX, type AppOptions } from './app.js';
export { serve, type RunningServer, type ServeOptions } from './server.js';
export { ROUTES, FILE_ROUTES, REDIRECT_ROUTES, type Route, type Method } from './routes.js';
export { httpStatus } from './status.js';
export { createServerLogger, LOG_REDACT_PATHS } from './request-log.js';
export { createServerMetrics, type ServerMetrics, type ServerMetricsOptions } from './metrics/server-metrics.js';
