import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createLinkVideoCallProvider, createRealm, ensureNotificationBots, findRealm, updateRealmAsOperator } from '@teamchat/core';
import { serve } from '@teamchat/http-adapter';
import { CliError, DEFAULT_DATA_DIR, openDataDir } from '../data-dir.js';
import { orFail, zuliprc } from '../output.js';
import { loadPushNotifier } from '../push-notifier.js';

export const SERVE_USAGE =
  'teamchat serve [--data DIR] [--host 127.0.0.1] [--port 9991] [--url PUBLIC_URL] [--video-call-url MEETING_BASE_URL] [--push-notifier MODULE]';

/**
 * Runs the server. An empty data directory gets a realm and an owner, whose credentials are
 * printed once (and written to DIR/zuliprc). SIGINT and SIGTERM stop it gracefully.
 */
export async function serveCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      data: { type: 'string', default: DEFAULT_DATA_DIR },
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '9991' },
      url: { type: 'string' },
      // Meeting URLs are this base plus a random room (for example https://meet.jit.si).
      'video-call-url': { type: 'string' },
      // A module whose default export is a PushNotifier, or a function ({ dataDir }) returning one.
      'push-notifier': { type: 'string' },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid --port '${values.port}'`);
  const videoCallUrl = values['video-call-url'];
  // Built before the server starts, so a malformed URL stops `serve` with its message.
  const videoCalls = videoCallUrl === undefined ? null : videoCallProvider(videoCallUrl);
  const notifierModule = values['push-notifier'];
  const pushNotifier = notifierModule === undefined ? null : await loadPushNotifier(notifierModule, values.data);
  const ctx = openDataDir(values.data, { videoCalls, pushNotifier });
  const running = await serve(ctx, { host: values.host, port });
  // The realm's canonical URL is where it is served, unless the operator names a public URL.
  const url = (values.url ?? running.url).replace(/\/+$/, '');

  const existing = await findRealm(ctx);
  if (existing) {
    if (existing.url !== url) orFail(await updateRealmAsOperator(ctx, existing, { url }));
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
  process.stdout.write(`teamchat is listening on ${running.url} (data: ${resolve(values.data)})\n`);

  const stop = async (signal: string) => {
    process.stdout.write(`${signal}: finishing requests in flight and closing the database\n`);
    await running.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

function videoCallProvider(baseUrl: string) {
  try {
    return createLinkVideoCallProvider(baseUrl);
  } catch (error) {
    throw new CliError(`--video-call-url: ${(error as Error).message}`);
  }
}
