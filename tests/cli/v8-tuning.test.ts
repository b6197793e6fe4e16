/**
 * `teamchat serve` turns V8's allocation-site pretenuring off (packages/cli/src/v8-tuning.ts):
 * once a literal's objects have survived young collections, V8 would allocate all its later
 * objects in the old generation, where only full collections reclaim them. Checked in a child
 * process, since only `--allow-natives-syntax` can ask V8 where an object lives; its collector
 * runs on the main thread only, so that the machine's load does not move its decisions.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const PROBE = join(import.meta.dirname, 'v8-tuning/probe.ts');

const youngAfterSurvivors = (...args: string[]): number =>
  (JSON.parse(execFileSync(process.execPath, ['--allow-natives-syntax', '--single-threaded-gc', '--import', 'tsx', PROBE, ...args], { cwd: ROOT, encoding: 'utf8' })) as { young: number }).young;

it('without the tuning, a literal whose objects survived is then allocated old (the probe shows what the tuning prevents)', () => {
  expect(youngAfterSurvivors()).toBe(0);
});

it("with serve's V8 tuning, objects of that literal still start young", () => {
  expect(youngAfterSurvivors('tuned')).toBe(100);
});
