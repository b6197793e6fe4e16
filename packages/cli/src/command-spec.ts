/**
 * How a command is declared: a name, its help texts, one table of options, and what it runs
 * with their values. The table is the only list of a command's options: commander's parser and
 * help (program.ts), the environment variables and serve's config file all derive from it.
 */
import { CliError } from './data-dir.js';

/** What an option's value is; a config file must give it as this JSON/TOML type. */
export type OptionKind = 'string' | 'number' | 'boolean';

/** One option of a command, `--NAME` on the command line. */
export interface OptionSpec<T> {
  /** One line for `--help`. */
  readonly description: string;
  readonly kind: OptionKind;
  /** The value's placeholder in help (`--data <DIR>`); a switch (`--json`) has none. */
  readonly value?: string;
  /** Used when neither the flag nor its environment variable is given. */
  readonly default?: T;
  /** Shown in help instead of the default's value when that says more (e.g. "the only realm"). */
  readonly defaultText?: string;
  /** The command refuses to run without a value (reported as "--NAME is required"). */
  readonly required?: boolean;
  /** An environment variable read when the flag is absent; an empty value counts as absent. */
  readonly env?: string;
  /** A switch that is on by default and turned off by `--no-NAME`. */
  readonly negatable?: boolean;
  /**
   * Reads the text of a flag or variable; throws a CliError that names `source` (`--port`,
   * `TEAMCHAT_PORT`, …) and says what is wrong.
   */
  readonly parse: (raw: string, source: string) => T;
}

// biome-ignore lint/suspicious/noExplicitAny: a table holds options of every value type.
export type OptionTable = Record<string, OptionSpec<any>>;

/** The values a command runs with, by option name: undefined only for an optional option without default. */
export type OptionValues<O extends OptionTable> = { [K in keyof O]: O[K] extends OptionSpec<infer T> ? T : never };

/** A `teamchat` subcommand. */
export interface CommandSpec<O extends OptionTable = OptionTable> {
  readonly name: string;
  /** One line, for `teamchat --help`. */
  readonly summary: string;
  /** Paragraphs for `teamchat NAME --help` (the summary when absent). */
  readonly description?: string;
  readonly options: O;
  readonly run: (values: OptionValues<O>) => Promise<void>;
}

/** Declares a command, checking `run` against its option table. */
export function defineCommand<O extends OptionTable>(spec: CommandSpec<O>): CommandSpec {
  return spec as unknown as CommandSpec;
}

interface Common {
  description: string;
  env?: string;
  defaultText?: string;
}
interface Valued<T> extends Common {
  value: string;
  parse?: (raw: string, source: string) => T;
  kind?: OptionKind;
}

const asText = (raw: string) => raw;

/** An option that takes a value: text unless `parse` reads it. */
export function option<T = string>(spec: Valued<T> & { default: T }): OptionSpec<T>;
export function option<T = string>(spec: Valued<T> & { required: true }): OptionSpec<T>;
export function option<T = string>(spec: Valued<T>): OptionSpec<T | undefined>;
export function option<T>(spec: Valued<T> & { default?: T; required?: boolean }): OptionSpec<T | undefined> {
  return { kind: 'string', parse: asText as (raw: string) => T, ...spec };
}

/** A whole number from `min` to `max` (a port, a count, a number of weeks). */
export function integer(spec: Common & { value: string; min: number; max: number; default: number }): OptionSpec<number>;
export function integer(spec: Common & { value: string; min: number; max: number }): OptionSpec<number | undefined>;
export function integer(spec: Common & { value: string; min: number; max: number; default?: number }): OptionSpec<number | undefined> {
  const { min, max, ...rest } = spec;
  return {
    kind: 'number',
    ...rest,
    parse: (raw, source) => {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isInteger(n) || n < min || n > max) throw new CliError(`${source} takes a whole number from ${min} to ${max}, not '${raw}'`);
      return n;
    },
  };
}

/** A switch: off unless given (`--json`). */
export function flag(spec: Common): OptionSpec<boolean> {
  return { kind: 'boolean', default: false, ...spec, parse: parseTrueOrFalse };
}

/** A switch that is on unless `--no-NAME` is given. */
export function negatableFlag(spec: Common): OptionSpec<boolean> {
  return { kind: 'boolean', default: true, negatable: true, ...spec, parse: parseTrueOrFalse };
}

/** `true` or `false`, as an option's value (`--can-create-users true`) or an environment variable's. */
export function parseTrueOrFalse(raw: string, source: string): boolean {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new CliError(`${source} takes true or false, not '${raw}'`);
}
