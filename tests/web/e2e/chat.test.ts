/**
 * The web client end to end, in Debian's chromium against a real `teamchat serve`: two users in
 * two browser contexts chat live (message, reaction, reload, upload), a hostile message never
 * runs script, a wrong password shows the alert. Elements are found by their roles and
 * accessible names (what a screen reader announces), which the client keeps stable for these
 * tests: "Email", "Password", "Sign in", the "Channels" navigation, the "Messages" log of
 * `article[data-message-id]`, "Topic", "Message", "Add reaction", "Emoji picker", "Search
 * emoji", "Upload files". Also measures first paint and the time
 * from "Sign in" to the first message (BENCHMARKS.md); the JavaScript budget is
 * tests/web/unit/bundle-size.test.ts's.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, signIn } from '../../helpers/browser.js';
import { startWebServer, type WebServer, type WebUser } from '../../helpers/web-server.js';

let server: WebServer;
let browser: Browser;
let ada: WebUser;
let grace: WebUser;

beforeAll(async () => {
  server = await startWebServer({ email: 'ada@acme.test', fullName: 'Ada Lovelace' }, [{ email: 'grace@acme.test', fullName: 'Grace Hopper' }]);
  [ada, grace] = server.users as [WebUser, WebUser];
  await server.api(ada, 'POST', '/users/me/subscriptions', {
    subscriptions: [{ name: 'general', description: 'Everything' }],
    principals: [ada.id, grace.id],
  });
  await server.api(grace, 'POST', '/messages', { type: 'stream', to: 'general', topic: 'hello', content: 'Welcome to **general**!' });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
}, 60_000);

const messages = (page: Page) => page.getByRole('log', { name: 'Messages' });
const messageWith = (page: Page, text: string) => messages(page).locator('article[data-message-id]', { hasText: text });
/** The channel's link: its name, then its unread count if any (not a topic link under it, such as "general chat"). */
const channelLink = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Channels' }).getByRole('link', { name: new RegExp(`^${name}(\\s+\\d+)?$`) });

/** Sends `content` under `topic` from the compose box of the open channel view, with Enter. */
async function compose(page: Page, topic: string, content: string): Promise<void> {
  const topicBox = page.getByRole('textbox', { name: 'Topic' });
  await topicBox.fill(topic);
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(content);
  await box.press('Enter');
  // Sent: the box is emptied for the next message.
  await expect.poll(() => box.inputValue()).toBe('');
}

describe('the web client in a browser', () => {
  it('shows the alert for a wrong password and stays on the form', { timeout: 120_000 }, async () => {
    const { context, page } = await openPage(browser);
    await signIn(page, server.url, ada.email, 'not-the-password');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect((await alert.textContent())?.trim()).not.toBe('');
    expect(await page.getByRole('button', { name: 'Sign in' }).isVisible()).toBe(true);
    await context.close();
  });

  it('two users: a message appears live, a reaction comes back, a reload keeps the view, an upload shows', { timeout: 300_000 }, async () => {
    const first = await openPage(browser);
    const second = await openPage(browser);
    const a = first.page;
    const g = second.page;

    // Ada signs in: first paint of the sign-in page, then the time to the first message shown.
    await a.goto(`${server.url}/`);
    const firstPaint = await a.evaluate(
      () =>
        new Promise<number>((resolve) => {
          new PerformanceObserver((list) => {
            const entry = list.getEntries().find((e) => e.name === 'first-contentful-paint') ?? list.getEntries()[0];
            if (entry) resolve(entry.startTime);
          }).observe({ type: 'paint', buffered: true });
        }),
    );
    await a.getByLabel('Email').fill(ada.email);
    await a.getByLabel('Password').fill(ada.password);
    const clicked = Date.now();
    await a.getByRole('button', { name: 'Sign in' }).click();
    await channelLink(a, 'general').click();
    await messageWith(a, 'Welcome to general!').waitFor();
    const toFirstMessage = Date.now() - clicked;
    console.log(`web client: first contentful paint ${firstPaint.toFixed(0)} ms; sign-in click to first message ${toFirstMessage} ms`);

    await signIn(g, server.url, grace.email, grace.password);
    await channelLink(g, 'general').click();
    await messageWith(g, 'Welcome to general!').waitFor();

    // Ada writes; Grace sees it without reloading.
    await compose(a, 'hello', 'Hello from Ada, live');
    const onGrace = messageWith(g, 'Hello from Ada, live');
    await onGrace.waitFor();
    expect(await onGrace.locator('.message-content').textContent()).toContain('Hello from Ada, live');
    expect(await onGrace.textContent()).toContain('Ada Lovelace');
    expect(await onGrace.locator('time').count()).toBeGreaterThan(0);

    // Grace reacts; Ada sees the reaction with its count.
    // The button shows with the message's hover or focus, as a pointer user reaches it.
    await onGrace.hover();
    await onGrace.getByRole('button', { name: 'Add reaction' }).click();
    const picker = g.getByRole('dialog', { name: 'Emoji picker' });
    await picker.getByLabel('Search emoji').fill('thumbs_up');
    await picker.getByRole('button', { name: 'thumbs_up', exact: true }).click();
    await messageWith(g, 'Hello from Ada, live').getByRole('button', { name: /thumbs_up.*1/ }).waitFor();
    await messageWith(a, 'Hello from Ada, live').getByRole('button', { name: /thumbs_up.*1/ }).waitFor();

    // A reload keeps the view: the same URL, the same messages.
    const view = a.url();
    expect(view).toContain('#narrow/');
    await a.reload();
    await messageWith(a, 'Hello from Ada, live').waitFor();
    expect(a.url()).toBe(view);

    // An upload from the compose box shows in the sent message, as a link to the file.
    await a.getByLabel('Upload files').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('meeting notes\n') });
    const box = a.getByRole('textbox', { name: 'Message' });
    await expect.poll(() => box.inputValue(), { timeout: 30_000 }).toContain('/user_uploads/');
    await box.press('Enter');
    const withFile = messageWith(g, 'notes.txt');
    await withFile.waitFor();
    const href = await withFile.locator('.message-content a[href*="/user_uploads/"]').first().getAttribute('href');
    expect(href).toMatch(/\/user_uploads\/.+notes\.txt$/);

    expect(first.errors).toEqual([]);
    expect(second.errors).toEqual([]);
    await first.context.close();
    await second.context.close();
  });

  it('never runs script from a message: no <script>, no onerror, no dialog', { timeout: 180_000 }, async () => {
    const first = await openPage(browser);
    const second = await openPage(browser);
    const dialogs: string[] = [];
    for (const page of [first.page, second.page]) {
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
    }
    await signIn(first.page, server.url, ada.email, ada.password);
    await signIn(second.page, server.url, grace.email, grace.password);
    for (const page of [first.page, second.page]) {
      await channelLink(page, 'general').click();
      await messageWith(page, 'Welcome to general!').waitFor();
    }

    const hostile = [
      'xss-1 <script>window.__xss = 1; alert(1)</script>',
      'xss-2 <img src=x onerror="window.__xss = 2; alert(2)">',
      'xss-3 [click](javascript:window.__xss=3) <svg onload="window.__xss = 4">',
    ];
    for (const content of hostile) {
      await compose(first.page, 'hello', content);
      await messageWith(first.page, content.slice(0, 5)).waitFor();
    }
    // Each went where the compose box said.
    const sent = (await server.api(ada, 'GET', '/messages', { anchor: 'newest', num_before: 3, num_after: 0, narrow: [{ operator: 'sender', operand: ada.id }] })) as {
      messages: { subject: string; display_recipient: string }[];
    };
    expect(sent.messages.map((m) => [m.display_recipient, m.subject])).toEqual([
      ['general', 'hello'],
      ['general', 'hello'],
      ['general', 'hello'],
    ]);
    // Sent by the API too, so that the message is there however the compose box treats it.
    await server.api(grace, 'POST', '/messages', { type: 'stream', to: 'general', topic: 'hello', content: 'xss-4 <img src=x onerror=alert(5)>' });
    for (const page of [first.page, second.page]) {
      for (const marker of ['xss-1', 'xss-2', 'xss-3', 'xss-4']) await messageWith(page, marker).waitFor();
      // The text shows as text.
      expect(await messageWith(page, 'xss-1').locator('.message-content').textContent()).toContain('<script>');
      expect(await messageWith(page, 'xss-2').locator('.message-content').textContent()).toContain('onerror=');
      const hrefs = await messageWith(page, 'xss-3').locator('.message-content a').evaluateAll((links) => links.map((l) => l.getAttribute('href') ?? ''));
      for (const href of hrefs) expect(href).not.toMatch(/^\s*javascript:/i);
      // Give an image's error handler its chance to run.
      await page.waitForTimeout(500);
      expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    }
    expect(dialogs).toEqual([]);
    expect(first.errors).toEqual([]);
    expect(second.errors).toEqual([]);
    await first.context.close();
    await second.context.close();
  });
});
