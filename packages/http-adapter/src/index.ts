export { createApp, API_PREFIX, type AppOptions } from './app.js';
export { serve, type RunningServer, type ServeOptions } from './server.js';
export { FILE_ROUTES, REDIRECT_ROUTES, ROUTES, type FileRoute, type RedirectRoute, type Route, type Method } from './routes.js';
