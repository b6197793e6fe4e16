/**
 * The config file of a configurable command (`serve`): `teamchat.toml` or `teamchat.json` in the
 * data directory, or the file `--config` / TEAMCHAT_CONFIG names. Its keys are the command's
 * option names (`port`, `log-level`, `rate-limits`), each holding the option's kind (string,
 * number, boolean) and checked by the option's own parser, so the file and the flags cannot
 * drift apart. Values come from the flag, else the environment variable, else the file, else the
 * default. TOML is read by smol-toml (maintained, spec-complete TOML 1.0, no dependencies).
 */
import { existsSync, readFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import type { OptionSpec, OptionTable } from './command-spec.js';
import { CliError } from './data-dir.js';

/** The files looked for in the data directory, in this order (having both is an error). */
export const CONFIG_FILE_NAMES = ['teamchat.toml', 'teamchat.json'] as const;

/** Names the config file when `--config` does not. */
export const CONFIG_ENV = 'TEAMCHAT_CONFIG';

/** The option that says where the data directory is: a file inside that directory cannot set it. */
const DATA_KEY = 'data';

/** An option's environment variable in a configurable command: its own, or TEAMCHAT_ and its name (`log-level` → TEAMCHAT_LOG_LEVEL). */
export const optionEnv = (name: string, spec: OptionSpec<unknown>) => spec.env ?? `TEAMCHAT_${name.toUpperCase().replace(/-/g, '_')}`;

/** A config file's values, checked and parsed, by option name. */
export interface ConfigValues {
  path: string;
  values: Record<string, unknown>;
}

/** The config file of the data directory `dataDir`, if it has one. */
export function findConfigFile(dataDir: string): string | undefined {
  const found = CONFIG_FILE_NAMES.map((name) => join(resolve(dataDir), name)).filter((path) => existsSync(path));
  if (found.length > 1) throw new CliError(`${resolve(dataDir)} has both ${CONFIG_FILE_NAMES.join(' and ')}: keep one`);
  return found[0];
}

/**
 * Reads and checks `path` against the option table: every key must be an option of it, of the
 * option's kind and accepted by its parser. `inDataDir`: the file was found in the data
 * directory, so it cannot name another one.
 */
export function readConfigFile(path: string, table: OptionTable, inDataDir: boolean): ConfigValues {
  const document = parseDocument(path);
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(document)) {
    const spec = Object.hasOwn(table, key) ? table[key] : undefined;
    if (!spec) throw new CliError(`${path}: unknown key '${key}' (the keys are ${Object.keys(table).join(', ')})`);
    if (key === DATA_KEY && inDataDir) throw new CliError(`${path}: '${DATA_KEY}' cannot be set in a file inside the data directory (use --config FILE to keep the file elsewhere)`);
    const kind = kindOf(value);
    if (kind !== spec.kind) throw new CliError(`${path}: '${key}' must be a ${spec.kind}, not ${kind === 'object' ? 'a table' : `a ${kind}`}`);
    values[key] = spec.parse(String(value), `${path}: ${key}`);
  }
  return { path, values };
}

function parseDocument(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(`${path}: cannot read the config file: ${(error as Error).message}`);
  }
  let document: unknown;
  try {
    document = extname(path) === '.json' ? JSON.parse(text) : parseToml(text);
  } catch (error) {
    const { message, line, column } = error as Error & { line?: number; column?: number };
    const where = line === undefined ? '' : ` (line ${line}, column ${column})`;
    throw new CliError(`${path}: not valid ${extname(path) === '.json' ? 'JSON' : 'TOML'}: ${message.replace(/\n[\s\S]*/, '')}${where}`);
  }
  if (kindOf(document) !== 'object') throw new CliError(`${path}: the config file must hold a table of keys (an object)`);
  return document as Record<string, unknown>;
}

const kindOf = (value: unknown): string => {
  if (Array.isArray(value)) return 'array';
  if (value instanceof Date) return 'date';
  if (value === null) return 'null';
  return typeof value;
};
