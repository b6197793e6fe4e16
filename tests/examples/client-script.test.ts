import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, expect, it } from 'vitest';
import { main } from '../../examples/client-script.js';
import { closeServers, startServer } from '../helpers/http.js';

afterEach(closeServers);

it('examples/client-script.ts sends, reads back and receives its message and reaction events', async () => {
  const server = await startServer();
  const { owner } = server.world;
  const output = await main({ url: server.url, email: owner.deliveryEmail, apiKey: owner.apiKey });
  expect(output).toMatchObject({ messageId: expect.any(Number), readBack: 'Hello from **@teamchat/client**' });
  expect(output.received).toMatchObject([
    { type: 'message', message: { id: output.messageId, sender_id: owner.id } },
    { type: 'reaction', op: 'add', message_id: output.messageId, emoji_name: 'wave', user_id: owner.id },
  ]);
});

it('runs as a script with the server, email and key from the environment', async () => {
  const server = await startServer();
  const { owner } = server.world;
  const script = fileURLToPath(new URL('../../examples/client-script.ts', import.meta.url));
  const env = { ...process.env, TEAMCHAT_URL: server.url, TEAMCHAT_EMAIL: owner.deliveryEmail, TEAMCHAT_API_KEY: owner.apiKey };
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], { env, cwd: fileURLToPath(new URL('../..', import.meta.url)) });
  expect(stdout).toMatch(/^sent message \d+; read back: Hello from \*\*@teamchat\/client\*\*\n/);
  expect(stdout).toContain('event: {"type":"reaction"');
}, 30000);
