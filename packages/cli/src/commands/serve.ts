import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createLinkVideoCallProvider, createRealm, ensureNotificationBots, findRealm, updateRealmAsOperator } from '@teamchat/core';
import { serve } from '@teamchat/http-adapter';
import { CliError, DEFAULT_DATA_DIR, openDataDir } from '../data-dir.js';
import { databaseUrl, displayUrl, postgresStorage } from '../database.js';
import { holdDataDirLock } from '../data-dir-lock.js';
import { orFail, zuliprc } from '../output.js';
import { loadPushNotifier } from '../push-notifier.js';
import { joinCluster } from '../cluster.js';
import { describeWebClient, locateWebClient } from '../web-client.js';

export const SERVE_USAGE =
  'teamchat serve [--data DIR] [--database postgres://…] [--node-id ID] [--internal-url URL] [--host 127.0.0.1] [--port 9991] [--url PUBLIC_URL] [--video-call-url MEETING_BASE_URL] [--push-notifier MODULE] [--shutdown-timeout SECONDS] [--web-dir DIR | --no-web]';

/**
 * Runs the server. An empty data directory gets a realm and an owner, whose credentials are
 * printed once (and written to DIR/zuliprc). SIGINT and SIGTERM stop it gracefully: requests in
 * flight finish, and connections still open after --shutdown-timeout seconds (default 10) are cut.
 * A second signal exits at once.
 */
export async function serveCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      data: { type: 'string', default: DEFAULT_DATA_DIR },
      // A PostgreSQL database instead of the data directory's SQLite file (also TEAMCHAT_DATABASE_URL).
      database: { type: 'string' },
      // With --database, this process is a node of a cluster: its ID, and where the other nodes reach it.
      'node-id': { type: 'string' },
      'internal-url': { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '9991' },
      url: { type: 'string' },
      // Meeting URLs are this base plus a random room (for example https://meet.jit.si).
      'video-call-url': { type: 'string' },
      // A module whose default export is a PushNotifier, or a function ({ dataDir }) returning one.
      'push-notifier': { type: 'string' },
      'shutdown-timeout': { type: 'string', default: '10' },
      // The built web client served at `/` (default: the @teamchat/web package's dist), or none.
      'web-dir': { type: 'string' },
      'no-web': { type: 'boolean', default: false },
    },
  });
  const shutdownTimeout = Number(values['shutdown-timeout']);
  if (!Number.isFinite(shutdownTimeout) || shutdownTimeout < 0) throw new CliError(`invalid --shutdown-timeout '${values['shutdown-timeout']}'`);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid --port '${values.port}'`);
  if (values['no-web'] && values['web-dir'] !== undefined) throw new CliError('--web-dir and --no-web exclude each other');
  const webRoot = values['no-web'] ? undefined : locateWebClient(values['web-dir']);
  const videoCallUrl = values['video-call-url'];
  // Built before the server starts, so a malformed URL stops `serve` with its message.
  const videoCalls = videoCallUrl === undefined ? null : videoCallProvider(videoCallUrl);
  const notifierModule = values['push-notifier'];
  const pushNotifier = notifierModule === undefined ? null : await loadPushNotifier(notifierModule, values.data);
  // The server's operations never nest storage calls (the test suite runs them with the check
  // on), so the check's process-wide promise hook is not paid for on every request.
  const database = databaseUrl(values.database);
  // Held for the life of the process: `teamchat restore` refuses a directory whose SQLite file a
  // server uses. On PostgreSQL the directory holds uploads only, shared by every node.
  if (database === undefined) holdDataDirLock(values.data, 'serve');
  const cluster = database === undefined ? undefined : await joinCluster(database, values['node-id']);
  const storage = database === undefined ? undefined : postgresStorage(database, undefined, cluster?.events);
  const ctx = openDataDir(values.data, { videoCalls, pushNotifier, storage, cluster, sqlite: { detectNestedCalls: false } });
  const running = await serve(ctx, { host: values.host, port, shutdownTimeoutMs: shutdownTimeout * 1000, webRoot });
  await cluster?.announce(values['internal-url'] ?? running.url);
  // Handlers first: a signal during the setup below must still close the server and the store.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      process.stderr.write(`${signal} again: exiting without waiting\n`);
      process.exit(1);
    }
    stopping = true;
    process.stdout.write(`${signal}: finishing requests in flight and closing the database\n`);
    // close() ends by itself (it destroys connections past the timeout and bounds its wait for
    // handlers); this is the last resort should the store itself not close.
    setTimeout(() => {
      process.stderr.write('teamchat: shutdown did not complete in time, exiting\n');
      process.exit(1);
    }, shutdownTimeout * 2000 + 5000).unref();
    await running.close();
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
    process.stdout.write(
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
  process.stdout.write(`${describeWebClient(webRoot)}\n`);
  process.stdout.write(`teamchat is listening on ${running.url} (${where})\n`);
}

function videoCallProvider(baseUrl: string) {
  try {
    return createLinkVideoCallProvider(baseUrl);
  } catch (error) {
    throw new CliError(`--video-call-url: ${(error as Error).message}`);
  }
}
