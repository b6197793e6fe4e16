/**
 * The initial JavaScript stays under the budget (250 KB gzip). The client is built here,
 * into a scratch directory, with the package's own Vite: the figure is that of the current
 * source, never of a stale dist/.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BUDGET_BYTES, initialJsSize } from '../../../packages/web/scripts/bundle-size';

const webDir = fileURLToPath(new URL('../../../packages/web/', import.meta.url));
const outDir = mkdtempSync(join(tmpdir(), 'teamchat-web-build-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('the built web client', () => {
  it('loads at most 250 KB of gzipped JavaScript before its first render', () => {
    execFileSync(join(webDir, 'node_modules', '.bin', 'vite'), ['build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], { cwd: webDir, stdio: 'pipe' });
    const size = initialJsSize(outDir);
    expect(size.files.length).toBeGreaterThan(0);
    expect(size.files.every((file) => file.startsWith('assets/') && file.endsWith('.js'))).toBe(true);
    expect(size.gzipBytes).toBeGreaterThan(0);
    expect(size.gzipBytes).toBeLessThanOrEqual(BUDGET_BYTES);
  }, 180_000);
});
