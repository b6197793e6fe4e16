/**
 * h3 as the http-adapter package has it: the root does not depend on h3 itself, so the baseline
 * loads the very copy (and version) the adapter serves with.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The part of h3's API the baseline uses (the root cannot name h3's own types). */
export interface H3Module {
  H3: new () => { all(route: string, handler: () => Response): unknown };
  serve(
    app: unknown,
    options: { port: number; hostname: string; silent: boolean },
  ): { ready(): Promise<unknown>; url?: string; close(closeActiveConnections?: boolean): Promise<void> };
}

export async function h3(): Promise<H3Module> {
  const fromAdapter = createRequire(new URL('../../packages/http-adapter/package.json', import.meta.url));
  const root = dirname(fromAdapter.resolve('h3/package.json'));
  return (await import(pathToFileURL(join(root, 'dist/_entries/node.mjs')).href)) as H3Module;
}
