/**
 * @teamchat/client as a registry would serve it: packed with npm, installed into a fresh
 * project that has no @teamchat/core, then a TypeScript consumer is typechecked against the
 * packed declaration file. Needs the package built (`pnpm run build`).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const clientPackage = join(root, 'packages/client');
const project = mkdtempSync(join(tmpdir(), 'teamchat-packed-client-'));
const installed = join(project, 'node_modules/@teamchat/client');

/**
 * The consumer: typed parameters and results. Each `@ts-expect-error` fails the check if the
 * line it marks compiles, so the declarations must really type them (not fall back to any).
 */
const CONSUMER = `import { ApiError, createClient, type ApiEvent, type ResultOf } from '@teamchat/client';

const client = createClient({ url: 'http://chat.example', email: 'bot@chat.example', apiKey: 'key' });
export async function send(): Promise<number> {
  const sent = await client.sendMessage({ type: 'stream', to: 'general', topic: 'hi', content: 'Hello' });
  // @ts-expect-error a misspelled parameter
  await client.sendMessage({ type: 'stream', to: 'general', topic: 'hi', contnet: 'Hello' });
  return sent.id;
}
export function describeEvent(event: ApiEvent): string {
  return event.type === 'message' ? event.message.content : event.type;
}
export function isError(value: unknown): boolean {
  return value instanceof ApiError && value.code === 'BAD_REQUEST';
}
// @ts-expect-error a message ID is a number
export const wrong: ResultOf<typeof client.sendMessage> = { id: 'one' };
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    // The packed declaration file is checked too, not only the consumer.
    skipLibCheck: false,
    types: ['node'],
    noEmit: true,
  },
  files: ['consumer.ts'],
};

let tarball = '';

beforeAll(async () => {
  if (!existsSync(join(clientPackage, 'dist/index.d.ts'))) throw new Error('packages/client is not built: run `npx -y pnpm@10 run build`');
  const { stdout } = await run('npm', ['pack', '--pack-destination', project], { cwd: clientPackage });
  tarball = join(project, stdout.trim().split('\n').filter((line) => line.endsWith('.tgz')).pop() ?? '');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'client-consumer', private: true, type: 'module' }));
  // The client has no dependencies, so this install needs no registry.
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: project });
  symlinkSync(join(root, 'node_modules/@types'), join(project, 'node_modules/@types'), 'dir');
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  writeFileSync(join(project, 'consumer.ts'), CONSUMER);
}, 120_000);

afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('the packed @teamchat/client', () => {
  it('installs without @teamchat/core, and its declaration file imports nothing', () => {
    expect(existsSync(join(project, 'node_modules/@teamchat/core'))).toBe(false);
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.peerDependencies).toBeUndefined();
    const declarations = readFileSync(join(installed, 'dist/index.d.ts'), 'utf8');
    expect(declarations).not.toMatch(/^\s*(import|export)\b[^;]*\bfrom\s+['"]/m);
    expect(declarations).not.toMatch(/\bimport\(\s*['"]/);
  });

  it('typechecks a consumer against its declaration file alone', async () => {
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const checked = await run(process.execPath, [tsc, '-p', project]).then(
      ({ stdout }) => stdout,
      (error: { stdout: string }) => error.stdout,
    );
    expect(checked).toBe('');
  }, 120_000);
});
