import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The directory of the built web client that `serve` answers at `/`: `--web-dir` when given,
 * else the `dist` of the installed `@teamchat/web` package, else where a checkout builds it
 * (packages/web/dist beside this package), so that the server can say how to build it.
 */
export function locateWebClient(webDir: string | undefined): string {
  if (webDir !== undefined) return resolve(webDir);
  try {
    const manifest = createRequire(import.meta.url).resolve('@teamchat/web/package.json');
    return join(dirname(manifest), 'dist');
  } catch {
    // From packages/cli/src or packages/cli/dist.
    return resolve(dirname(fileURLToPath(import.meta.url)), '../../web/dist');
  }
}

/** One line for the server's start-up output: where the client comes from, or that it is missing. */
export function describeWebClient(webRoot: string | undefined): string {
  if (webRoot === undefined) return 'web client: disabled (--no-web)';
  return existsSync(join(webRoot, 'index.html'))
    ? `web client: ${webRoot}`
    : `web client: not built (no index.html in ${webRoot}; run \`npx -y pnpm@10 run build\` or pass --web-dir)`;
}
