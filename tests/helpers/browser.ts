/**
 * Debian's chromium driven by playwright-core (which cannot download its own browser here).
 * Each launch starts with a new empty profile: playwright gives the browser a fresh
 * `--user-data-dir` in the temporary directory and deletes it when the browser closes (it
 * refuses the flag in `args` for that reason). A missing chromium is an error, never a skip:
 * `.ci/run` installs it.
 */
import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.TEAMCHAT_CHROMIUM ?? '/usr/bin/chromium';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`chromium is not installed at ${CHROMIUM_PATH}: apt-get update && apt-get install -y chromium (or set TEAMCHAT_CHROMIUM)`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ARGS, headless: true, timeout: 60_000 });
}

export interface PageOptions {
  colorScheme?: 'light' | 'dark';
  viewport?: { width: number; height: number };
}

/**
 * A page in a context of its own (its own storage and cookies: one user), with page errors
 * and failed console messages collected for the test to check.
 */
export async function openPage(browser: Browser, options: PageOptions = {}): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    colorScheme: options.colorScheme ?? 'light',
    viewport: options.viewport ?? { width: 1280, height: 800 },
    reducedMotion: 'reduce',
  });
  // Generous: the machine running the tests may be loaded.
  context.setDefaultTimeout(30_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  // A resource the server's Content-Security-Policy blocks is a bug of the client or the policy.
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) errors.push(`csp: ${message.text()}`);
  });
  return { context, page, errors };
}

/** Signs in through the form of the contract (labels "Email", "Password", button "Sign in"). */
export async function signIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}
