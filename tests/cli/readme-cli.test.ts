/**
 * README's command-line documentation stays complete: every command is in a table, and the
 * config-file table lists exactly serve's options, each with its type and variable.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../packages/cli/src/commands.js';
import { SERVE_OPTIONS } from '../../packages/cli/src/commands/serve.js';
import { optionEnv } from '../../packages/cli/src/config-file.js';

const README = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');

describe('README', () => {
  it('documents every command', () => {
    for (const command of COMMANDS) expect(README, command.name).toContain(`| \`teamchat ${command.name} `);
  });

  it("lists every config key, with serve's options' types and variables", () => {
    const table = README.slice(README.indexOf('| key | type | default | variable |'));
    const rows = table
      .split('\n')
      .slice(2)
      .filter((line, i, lines) => line.startsWith('|') && lines.slice(0, i).every((l) => l.startsWith('|')))
      .map((line) => line.split('|').map((cell) => cell.trim().replace(/`/g, '')));
    const documented = Object.fromEntries(rows.map(([, key, type, , variable]) => [key, { type, variable }]));
    const expected = Object.fromEntries(Object.entries(SERVE_OPTIONS).map(([name, option]) => [name, { type: option.kind, variable: optionEnv(name, option) }]));
    expect(documented).toEqual(expected);
  });
});
