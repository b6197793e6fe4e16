/**
 * Objects made on every request keep one hidden class per shape (packages/core/src/objects.ts).
 * Node 20's V8 gives a spread copy with a field added a new hidden class on every call: on a
 * request path that was old-generation garbage and megamorphic reads. Checked in a child
 * process, since only `--allow-natives-syntax` can ask V8 whether two objects share a class.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const PROBE = join(import.meta.dirname, 'hidden-classes/probe.ts');

it('extend, copyOf and the coerced parameters of a request share one hidden class across calls', () => {
  const output = execFileSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', PROBE], { cwd: ROOT, encoding: 'utf8' });
  expect(JSON.parse(output)).toEqual({ extend: true, copyOfThenAdd: true, coercedParams: true });
});
