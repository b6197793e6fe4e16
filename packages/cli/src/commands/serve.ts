import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createLinkVideoCallProvider, createRealm, ensureNotificationBots, findRealm, updateRealmAsOperator } from '@teamchat/core';
import { createServerMetrics, serve } from '@teamchat/http-adapter';
import { joinCluster } from '../cluster.js';
import { type DatabaseSize, postgresDatabaseSize, sqliteDatabaseSize } from '../database-size.js';
import { createCliLogger, lifecycleLogger, parseLogLevel } from '../logging.js';
import { cliVersion } from '../version.js';
import { defineCommand, integer, negatableFlag, type OptionTable, type OptionValues, option } from '../command-spec.js';
import { CliError, openDataDir } from '../data-dir.js';
import { holdDataDirLock } from '../data-dir-lock.js';
import { displayUrl, postgresStorage } from '../database.js';
import { databaseOption, dataDirOption } from '../options.js';
import { orFail, zuliprc } from '../output.js';
import { loadPushNotifier } from '../push-notifier.js';
import { parseRateLimitRules, RULES_FORMAT } from '../rate-limits.js';
import { tuneV8ForServing } from '../v8-tuning.js';
import { describeWebClient, locateWebClient } from '../web-client.js';

function parseSeconds(raw: string, source: string): number {
  const seconds = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(seconds) || seconds < 0) throw new CliError(`${source} takes a number of seconds (0 or more), not '${raw}'`);
  return seconds;
}

/** Every option of `teamchat serve`: the one list its flags, environment variables and config file keys come from. */
export const SERVE_OPTIONS = {
  data: dataDirOption,
  database: databaseOption,
  'node-id': option({ value: 'ID', description: "with --database, this node's ID in the cluster of processes serving the database", defaultText: 'a random ID' }),
  'internal-url': option({ value: 'URL', description: 'with --database, where the other nodes reach this one', defaultText: 'the listening address' }),
  host: option({ value: 'HOST', description: 'the address to listen on', default: '127.0.0.1' }),
  port: integer({ value: 'PORT', description: 'the port to listen on (0: any free port)', min: 0, max: 65535, default: 9991 }),
  url: option({ value: 'URL', description: "the realm's public URL, when a reverse proxy serves it", defaultText: 'the listening address' }),
  'video-call-url': option({ value: 'URL', description: 'a meeting base URL for video calls (e.g. https://meet.jit.si); meetings get a random room under it' }),
  'push-notifier': option({ value: 'MODULE', description: 'a module whose default export is a PushNotifier, or a function ({ dataDir }) returning one' }),
  'shutdown-timeout': option({ value: 'SECONDS', kind: 'number', description: 'how long requests in flight may take to finish on SIGINT/SIGTERM', default: 10, parse: parseSeconds }),
  'rate-limits': negatableFlag({ description: "limit API requests per user and per address as the reference server does (--no-rate-limits: no limits)", env: 'TEAMCHAT_RATE_LIMITS' }),
  'rate-limit-rules': option({
    value: 'RULES',
    description: `replaces the rules of the domains named (api_by_user, api_by_ip): ${RULES_FORMAT}`,
    defaultText: 'api_by_user=200/60,api_by_ip=100/60',
    env: 'TEAMCHAT_RATE_LIMIT_RULES',
    parse: parseRateLimitRules,
  }),
  'log-level': option({
    value: 'LEVEL',
    description: 'the least severe log lines written: trace, debug, info, warn, error, fatal or silent',
    env: 'TEAMCHAT_LOG_LEVEL',
    default: 'info' as const,
    parse: parseLogLevel,
  }),
  'metrics-host': option({ value: 'HOST', description: 'with --metrics-port, the address GET /metrics listens on', defaultText: '127.0.0.1' }),
  'metrics-port': integer({ value: 'PORT', description: 'serve Prometheus metrics (GET /metrics) on this port, apart from the API (0: any free port)', min: 0, max: 65535, defaultText: 'off' }),
  // Behind a reverse proxy, the client is the address the proxy saw (X-Forwarded-For): logins and per-address limits count it.
  'trusted-proxy-hops': integer({ value: 'N', description: 'reverse proxies in front of the server whose X-Forwarded-For entries are believed (0: the header is ignored)', min: 0, max: 16, default: 0, env: 'TEAMCHAT_TRUSTED_PROXY_HOPS' }),
  web: negatableFlag({ description: 'serve the built web client at / (--no-web: only the API, the probes and the files)', env: 'TEAMCHAT_WEB' }),
  'web-dir': option({ value: 'DIR', description: 'the built web client to serve (a directory holding index.html and assets/)', defaultText: "the @teamchat/web package's dist", env: 'TEAMCHAT_WEB_DIR' }),
} satisfies OptionTable;

export const serveCommand = defineCommand({
  name: 'serve',
  summary: 'run the server (an empty data directory gets a realm and its owner)',
  description: `Runs the server. An empty data directory gets a realm and an owner, whose credentials are printed once (and written to DIR/zuliprc). SIGINT and SIGTERM stop it gracefully: requests in flight finish, and connections still open after --shutdown-timeout seconds are cut. A second signal exits at once.`,
  options: SERVE_OPTIONS,
  configurable: true,
  run: serveForever,
});

async function serveForever(values: OptionValues<typeof SERVE_OPTIONS>): Promise<void> {
  tuneV8ForServing();
  const logger = createCliLogger(values['log-level']);
  const lifecycle = lifecycleLogger(logger);
  const metricsPort = values['metrics-port'];
  if (values['metrics-host'] !== undefined && metricsPort === undefined) throw new CliError('--metrics-host needs --metrics-port');
  const shutdownTimeout = values['shutdown-timeout'];
  const port = values.port;
  if (!values.web && values['web-dir'] !== undefined) throw new CliError('--web-dir and --no-web exclude each other');
  const webRoot = values.web ? locateWebClient(values['web-dir']) : undefined;
  const videoCallUrl = values['video-call-url'];
  // Built before the server starts, so a malformed URL stops `serve` with its message.
  const videoCalls = videoCallUrl === undefined ? null : videoCallProvider(videoCallUrl);
  const notifierModule = values['push-notifier'];
  const pushNotifier = notifierModule === undefined ? null : await loadPushNotifier(notifierModule, values.data);
  // The server's operations never nest storage calls (the test suite runs them with the check
  // on), so the check's process-wide promise hook is not paid for on every request.
  const database = values.database;
  // Held for the life of the process: `teamchat restore` refuses a directory whose SQLite file a
  // server uses. On PostgreSQL the directory holds uploads only, shared by every node.
  if (database === undefined) holdDataDirLock(values.data, 'serve');
  const cluster = database === undefined ? undefined : await joinCluster(database, values['node-id'], logger);
  const storage = database === undefined ? undefined : postgresStorage(database, logger, cluster?.events);
  const config = {
    rateLimiting: values['rate-limits'],
    trustedProxyHops: values['trusted-proxy-hops'],
    ...(values['rate-limit-rules'] ? { rateLimitRules: values['rate-limit-rules'] } : {}),
  };
  const databaseSize: DatabaseSize | undefined =
    metricsPort === undefined ? undefined : database === undefined ? sqliteDatabaseSize(values.data) : postgresDatabaseSize(database);
  const metrics = databaseSize && createServerMetrics({ databaseSizeBytes: () => databaseSize.bytes() });
  const ctx = openDataDir(values.data, {
    videoCalls,
    pushNotifier,
    storage,
    cluster,
    logger,
    metrics: metrics?.observer,
    config,
    sqlite: { detectNestedCalls: false },
  });
  const running = await serve(ctx, {
    host: values.host,
    port,
    shutdownTimeoutMs: shutdownTimeout * 1000,
    logger,
    webRoot,
    ...(metrics && metricsPort !== undefined ? { metrics: { collector: metrics, host: values['metrics-host'] ?? '127.0.0.1', port: metricsPort } } : {}),
  }).catch((error: NodeJS.ErrnoException) => {
    // A port in use (the metrics port given as the API's among them) is the operator's to fix.
    if (error.code === 'EADDRINUSE' || error.code === 'EADDRNOTAVAIL' || error.code === 'EACCES') throw new CliError(`cannot listen: ${error.message}`);
    throw error;
  });
  await cluster?.announce(values['internal-url'] ?? running.url);
  // Handlers first: a signal during the setup below must still close the server and the store.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      lifecycle.warn({ signal }, `${signal} again: exiting without waiting`);
      process.exit(1);
    }
    stopping = true;
    lifecycle.info({ signal }, `${signal}: finishing requests in flight and closing the database`);
    // close() ends by itself (it destroys connections past the timeout and bounds its wait for
    // handlers); this is the last resort should the store itself not close.
    setTimeout(() => {
      logger.error({ signal }, 'shutdown did not complete in time, exiting');
      process.exit(1);
    }, shutdownTimeout * 2000 + 5000).unref();
    const started = Date.now();
    await running.close();
    await databaseSize?.close();
    lifecycle.info({ durationMs: Date.now() - started }, 'teamchat stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  // The realm's canonical URL is where it is served, unless the operator names a public URL.
  const url = (values.url ?? running.url).replace(/\/+$/, '');

  const existing = await findRealm(ctx);
  if (existing) {
    // A node of a cluster is one address among several: it sets the realm's URL only when told (--url).
    const claimsUrl = !cluster || values.url !== undefined;
    if (existing.url !== url && claimsUrl) orFail(await updateRealmAsOperator(ctx, existing, { url }));
  } else {
    const password = randomBytes(12).toString('base64url');
    const { owner } = orFail(
      await createRealm(ctx, {
        name: 'Teamchat',
        url,
        owner: { email: 'owner@teamchat.local', fullName: 'Owner', password },
      }),
    );
    const rc = zuliprc(owner.deliveryEmail, owner.apiKey, url);
    writeFileSync(join(resolve(values.data), 'zuliprc'), rc, { mode: 0o600 });
    // Not a log line: the owner's password and key must not enter a log pipeline (stdout carries
    // the log), and a person starting the server reads them on the terminal.
    process.stderr.write(
      [
        'Created a new realm and its owner:',
        `  email:    ${owner.deliveryEmail}`,
        `  password: ${password}`,
        `  API key:  ${owner.apiKey}`,
        '',
        `.zuliprc (also saved to ${join(resolve(values.data), 'zuliprc')}):`,
        rc,
      ].join('\n'),
    );
  }
  // Every realm has its Notification Bot from the start (realms of older data directories too).
  await ensureNotificationBots(ctx);
  const where = database === undefined ? `data: ${resolve(values.data)}` : `database: ${displayUrl(database)}, uploads: ${resolve(values.data)}`;
  lifecycle.info(
    {
      version: cliVersion(),
      url: running.url,
      database: database === undefined ? 'sqlite' : 'postgresql',
      dataDir: resolve(values.data),
      webRoot: webRoot ?? null,
      ...(running.metricsUrl ? { metricsUrl: running.metricsUrl } : {}),
    },
    // The URL is followed by a space: scripts (and the tests) find it with /listening on (\S+)/.
    `teamchat is listening on ${running.url} (${where}; ${describeWebClient(webRoot)})`,
  );
}

function videoCallProvider(baseUrl: string) {
  try {
    return createLinkVideoCallProvider(baseUrl);
  } catch (error) {
    throw new CliError(`--video-call-url: ${(error as Error).message}`);
  }
}
