/**
 * The command line itself, through the built CLI: help on every command naming each option of
 * its table, and errors (unknown option or command, missing or bad value, stray argument) that
 * name the option, exit 1 and print no stack trace.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../packages/cli/src/commands.js';

const CLI = join(import.meta.dirname, '../../packages/cli/dist/cli.js');
const run = promisify(execFile);

/** Runs in a directory of its own, so that a command that wrongly ran could not touch the worktree. */
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return cliWith({ TEAMCHAT_DATABASE_URL: '' }, ...args);
}

async function cliWith(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('node', [CLI, ...args], { env: { ...process.env, ...env }, cwd: mkdtempSync(join(tmpdir(), 'teamchat-cwd-')) });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const NO_STACK = /\n\s+at /;

describe('teamchat --help', () => {
  it('lists every command with its summary, also when run bare', async () => {
    for (const args of [[], ['--help'], ['help']]) {
      const result = await cli(...args);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^Usage: teamchat COMMAND \[options\]/);
      for (const command of COMMANDS) expect(result.stdout).toContain(command.name);
    }
  });

  it.each(COMMANDS.map((command) => [command.name, command] as const))('%s --help describes the command and each option', async (name, command) => {
    const result = await cli(name, '--help');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(new RegExp(`^Usage: teamchat ${name} \\[options\\]`));
    // Commander wraps long lines: compare with whitespace collapsed.
    const text = result.stdout.replace(/\s+/g, ' ');
    expect(text).toContain((command.description ?? command.summary).replace(/\s+/g, ' ').slice(0, 60));
    for (const [option, spec] of Object.entries(command.options)) {
      const flag = spec.negatable ? `--no-${option}` : spec.value ? `--${option} <${spec.value}>` : `--${option}`;
      expect(text).toContain(`${flag} ${spec.description.replace(/\s+/g, ' ')}`);
    }
    expect((await cli('help', name)).stdout).toBe(result.stdout);
  });

  it('shows defaults, required options and environment variables', async () => {
    const text = (await cli('serve', '--help')).stdout.replace(/\s+/g, ' ');
    expect(text).toMatch(/--port <PORT> .*\(default: 9991\)/);
    expect(text).toMatch(/--database <URL> .*\(env: TEAMCHAT_DATABASE_URL\)/);
    expect((await cli('backup', '--help')).stdout.replace(/\s+/g, ' ')).toMatch(/--out <FILE> where to write the archive \(required\)/);
  });
});

describe('argument errors', () => {
  const expectRefused = (result: { code: number; stdout: string; stderr: string }, message: RegExp) => {
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(NO_STACK);
    expect(result.stdout).toBe('');
  };

  it('names an unknown option, suggests a close one, and points at the help', async () => {
    const result = await cli('init', '--data', mkdtempSync(join(tmpdir(), 'teamchat-cli-')), '--emial', 'a@b.test');
    expectRefused(result, /^teamchat: Unknown option '--emial'\n\(Did you mean --email\?\)\nSee `teamchat init --help`\.\n$/);
  });

  it('names an unknown command', async () => {
    expectRefused(await cli('frobnicate'), /^teamchat: Unknown command 'frobnicate'/);
  });

  it('names an option whose value is missing', async () => {
    expectRefused(await cli('serve', '--port'), /Option '--port <PORT>' argument missing/);
  });

  it('names an option whose value is bad, before touching the data directory', async () => {
    expectRefused(await cli('serve', '--port', '70000'), /^teamchat: --port takes a whole number from 0 to 65535, not '70000'\n$/);
    expectRefused(await cli('serve', '--port', 'abc'), /--port takes a whole number/);
    expectRefused(await cli('serve', '--shutdown-timeout', '-1'), /--shutdown-timeout takes a number of seconds \(0 or more\), not '-1'/);
    expectRefused(await cli('migrate', '--from', 'dir', '--to', 'postgres://x/y'), /--from takes sqlite:DIR/);
  });

  it('names the environment variable a bad value came from', async () => {
    const result = await cliWith({ TEAMCHAT_DATABASE_URL: 'mysql://x/y' }, 'serve', '--port', '0');
    expectRefused(result, /^teamchat: TEAMCHAT_DATABASE_URL takes a postgres:\/\/ URL, not 'mysql:\/\/x\/y'/);
  });

  it('names a required option that is missing, and refuses stray arguments', async () => {
    expectRefused(await cli('create-user', '--email', 'a@b.test'), /^teamchat: --full-name is required\n$/);
    expectRefused(await cli('backup', 'extra'), /Too many arguments for 'backup'/);
  });
});
