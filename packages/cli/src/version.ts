import { readFileSync } from 'node:fs';

/**
 * The CLI's version from its package.json: one directory up both from this source file and from
 * the bundle tsup builds (dist/cli.js), so the same URL serves both.
 */
export function cliVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
