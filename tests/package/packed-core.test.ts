/**
 * @teamchat/core as a registry would serve it: packed with pnpm, unpacked into a fresh project's
 * node_modules, then a TypeScript file importing each entry point is typechecked against the
 * packed declaration files and run. Offline: the package's dependencies are linked from the
 * workspace's install instead of downloaded. Needs the packages built (`pnpm run build`).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const corePackage = join(root, 'packages/core');
const project = mkdtempSync(join(tmpdir(), 'teamchat-packed-'));
const installed = join(project, 'node_modules/@teamchat/core');
/** A second install whose dependencies are all there but better-sqlite3, the optional peer. */
const withoutSqlite = mkdtempSync(join(tmpdir(), 'teamchat-packed-nosqlite-'));
const installedWithoutSqlite = join(withoutSqlite, 'node_modules/@teamchat/core');

/** The consumer: one import from each public entry point, and an operation called through them. */
const CONSUMER = `import { closeContext, createRealm, type Ctx, getUsers, ROLE, silentLogger } from '@teamchat/core';
import { createSqliteContext } from '@teamchat/core/sqlite';

const ctx: Ctx = createSqliteContext({ logger: silentLogger });
const created = await createRealm(ctx, {
  name: 'Packed',
  url: 'http://packed.example',
  owner: { email: 'o@packed.example', fullName: 'Owner', password: 'a long password' },
});
if (created.isErr()) throw new Error(created.error.msg);
const listed = await getUsers(ctx, { realm: created.value.realm, user: created.value.owner }, {});
const owner: number = created.value.owner.role;
console.log(JSON.stringify({ members: listed.isOk() ? listed.value.members.length : -1, isOwner: owner === ROLE.owner }));
await closeContext(ctx);
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    // The packed declaration files are checked too, not only the consumer.
    skipLibCheck: false,
    types: ['node'],
    outDir: 'out',
  },
  files: ['consumer.ts'],
};

let tarball = '';

beforeAll(async () => {
  if (!existsSync(join(corePackage, 'dist/index.d.ts'))) throw new Error('packages/core is not built: run `npx -y pnpm@10 run build`');
  const { stdout } = await run('npx', ['-y', 'pnpm@10', 'pack', '--pack-destination', project], { cwd: corePackage });
  tarball = stdout.trim().split('\n').filter((line) => line.endsWith('.tgz')).pop() ?? '';
  mkdirSync(installed, { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
  // What an install would have fetched: the dependencies, and @types/node for the consumer.
  symlinkSync(join(corePackage, 'node_modules'), join(installed, 'node_modules'), 'dir');
  symlinkSync(join(root, 'node_modules/@types'), join(project, 'node_modules/@types'), 'dir');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  writeFileSync(join(project, 'consumer.ts'), CONSUMER);

  mkdirSync(join(installedWithoutSqlite, 'node_modules'), { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', installedWithoutSqlite, '--strip-components=1']);
  for (const name of readdirSync(join(corePackage, 'node_modules'))) {
    if (name !== 'better-sqlite3') symlinkSync(join(corePackage, 'node_modules', name), join(installedWithoutSqlite, 'node_modules', name), 'dir');
  }
  writeFileSync(join(withoutSqlite, 'package.json'), JSON.stringify({ name: 'consumer-without-sqlite', private: true, type: 'module' }));
}, 120_000);

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
  rmSync(withoutSqlite, { recursive: true, force: true });
});

describe('the packed @teamchat/core', () => {
  it('holds the built files only, and every exports target is among them', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball]);
    const files = stdout.trim().split('\n').map((name) => name.replace(/^package\//, ''));
    expect(files.every((name) => name === 'package.json' || name.startsWith('dist/'))).toBe(true);
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
      types: string;
      exports: Record<string, string | { types: string; import: string }>;
    };
    expect(Object.keys(manifest.exports).sort()).toEqual(['.', './internal', './package.json', './sqlite']);
    const targets = Object.values(manifest.exports).flatMap((target) => (typeof target === 'string' ? [target] : [target.types, target.import]));
    for (const target of [manifest.types, ...targets]) expect(files).toContain(target.replace(/^\.\//, ''));
  });

  it('typechecks a consumer against its declaration files, and runs it', async () => {
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const checked = await run(process.execPath, [tsc, '-p', project]).catch((error: { stdout: string }) => error);
    expect(checked.stdout).toBe('');
    const { stdout } = await run(process.execPath, [join(project, 'out/consumer.js')], { cwd: project });
    expect(JSON.parse(stdout)).toEqual({ members: 1, isOwner: true });
  }, 120_000);

  it('does not load better-sqlite3 for the main entry; the sqlite entry does', async () => {
    // An ES module importing a CommonJS one goes through require's cache, so it shows there.
    const loads = async (entry: string) => {
      const script = `import('${entry}').then(() => console.log(Object.keys(require.cache).some((path) => path.includes('better-sqlite3'))))`;
      const { stdout } = await run(process.execPath, ['-e', script], { cwd: project });
      return stdout.trim() === 'true';
    };
    expect(await loads('@teamchat/core')).toBe(false);
    expect(await loads('@teamchat/core/internal')).toBe(false);
    expect(await loads('@teamchat/core/sqlite')).toBe(true);
  }, 60_000);

  it('declares better-sqlite3 as an optional peer, not a dependency', () => {
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
      peerDependenciesMeta?: Record<string, { optional?: boolean }>;
    };
    expect(manifest.dependencies?.['better-sqlite3']).toBeUndefined();
    expect(manifest.peerDependencies?.['better-sqlite3']).toMatch(/^\^12\./);
    expect(manifest.peerDependenciesMeta?.['better-sqlite3']).toEqual({ optional: true });
  });

  it('works without better-sqlite3 installed, until the sqlite entry is imported', async () => {
    const load = (entry: string) =>
      run(process.execPath, ['--input-type=module', '-e', `await import('${entry}'); console.log('loaded')`], { cwd: withoutSqlite }).then(
        ({ stdout }) => stdout.trim(),
        (error: { stderr: string }) => error.stderr,
      );
    expect(await load('@teamchat/core')).toBe('loaded');
    expect(await load('@teamchat/core/internal')).toBe('loaded');
    const sqlite = await load('@teamchat/core/sqlite');
    expect(sqlite).toContain('ERR_MODULE_NOT_FOUND');
    expect(sqlite).toContain("'better-sqlite3'");
  }, 60_000);
});
