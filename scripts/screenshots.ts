/**
 * Screenshots of the web client for the README, light and dark: starts `teamchat serve` with
 * the built client on a temporary data directory, posts a small team's conversation, signs in
 * as its first member in Debian's chromium, opens a topic and writes docs/screenshots/*.png.
 * Run with `npm run screenshots` (it builds first).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, openPage, signIn } from '../tests/helpers/browser.js';
import { seedConversation, TEAM } from '../tests/helpers/seed-conversation.js';
import { ROOT } from '../tests/helpers/serve-child.js';
import { startWebServer } from '../tests/helpers/web-server.js';

const OUT = join(ROOT, 'docs/screenshots');

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const [owner, ...others] = TEAM;
  const server = await startWebServer(owner, others);
  const browser = await launchBrowser();
  try {
    await seedConversation(server, server.users);
    const ada = server.users[0]!;
    const { context, page } = await openPage(browser, { colorScheme: 'light', viewport: { width: 1280, height: 900 } });
    await signIn(page, server.url, ada.email, ada.password);
    await page.getByRole('navigation', { name: 'Channels' }).waitFor();
    // Straight to the topic by its URL, as a shared link opens it: the channel's other topics stay unread.
    const { stream_id: streamId } = await server.api(ada, 'GET', '/get_stream_id', { stream: 'engineering' });
    await page.goto(`${server.url}/#narrow/channel/${streamId}-engineering/topic/${hashComponent('release 0.4')}`);
    await page.getByRole('log', { name: 'Messages' }).locator('article', { hasText: 'Then we tag tomorrow' }).waitFor();
    // One page for both themes, so that both pictures show the same state (viewing marks messages read).
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      // Fonts and images settled before the picture (the event queue's long-poll never lets the network go idle).
      await page.evaluate(async () => {
        await document.fonts.ready;
        await Promise.all([...document.images].map((image) => (image.complete ? undefined : new Promise((done) => image.addEventListener('loadend', done, { once: true })))));
        await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      });
      const path = join(OUT, `web-${colorScheme}.png`);
      await page.screenshot({ path });
      process.stdout.write(`wrote ${path}\n`);
    }
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
}

/** A topic in a URL's hash as the reference's web app writes it: percent-encoding with `.` for `%`. */
const hashComponent = (text: string) => encodeURIComponent(text).replace(/\./g, '%2E').replace(/%/g, '.');

main().catch((error: unknown) => {
  process.stderr.write(`screenshots: ${(error as Error)?.stack ?? error}\n`);
  process.exit(1);
});
