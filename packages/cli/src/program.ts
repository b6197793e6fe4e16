/**
 * The `teamchat` program: commander parses the command line (unknown options and commands,
 * missing values, `--help` on every command), and each command's option table says what its
 * options are. Commander was chosen over hand-written node:util parseArgs calls for its
 * per-command help, "did you mean" suggestions and errors that name the option; it is widely
 * used, maintained, and has no dependencies of its own.
 */
import { resolve } from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import { type CommandSpec, type OptionSpec, type OptionTable, option } from './command-spec.js';
import { CONFIG_ENV, CONFIG_FILE_NAMES, type ConfigValues, findConfigFile, optionEnv, readConfigFile } from './config-file.js';
import { CliError } from './data-dir.js';

/** The `teamchat` program with every command of `commands`. */
export function buildProgram(commands: readonly CommandSpec[]): Command {
  const program = new Command('teamchat')
    .description('A team chat server that speaks the Zulip REST API.')
    .usage('COMMAND [options]')
    .exitOverride()
    .configureOutput({ outputError: (message, write) => write(`teamchat: ${commanderMessage(message)}\n`) });
  for (const spec of commands) {
    const command = program
      .command(spec.name)
      .summary(spec.summary)
      .description(spec.description ?? spec.summary)
      .configureOutput({ outputError: (message, write) => write(`teamchat: ${commanderMessage(message)}\nSee \`teamchat ${spec.name} --help\`.\n`) });
    const table = commandOptions(spec);
    for (const [name, option] of Object.entries(table)) command.addOption(commanderOption(name, option));
    command.action(async (_options, parsed: Command) => spec.run(resolveValues(spec, table, parsed)));
  }
  return program;
}

const configOption = option({
  value: 'FILE',
  description: `a config file (TOML, or JSON if named *.json) instead of ${CONFIG_FILE_NAMES.map((name) => `DIR/${name}`).join(' or ')}`,
  env: CONFIG_ENV,
});

/** The options commander knows for `spec`: a configurable command's with their variables, and --config. */
function commandOptions(spec: CommandSpec): OptionTable {
  if (!spec.configurable) return spec.options;
  const withEnv = Object.fromEntries(Object.entries(spec.options).map(([name, option]) => [name, { ...option, env: optionEnv(name, option) }]));
  return { ...withEnv, config: configOption };
}

function commanderOption(name: string, spec: OptionSpec<unknown>): Option {
  const flags = spec.negatable ? `--no-${name}` : spec.value ? `--${name} <${spec.value}>` : `--${name}`;
  const notes = [
    spec.required ? 'required' : undefined,
    spec.defaultText !== undefined ? `default: ${spec.defaultText}` : spec.default !== undefined && spec.kind !== 'boolean' ? `default: ${spec.default}` : undefined,
    spec.env ? `env: ${spec.env}` : undefined,
  ].filter((note) => note !== undefined);
  return new Option(flags, notes.length > 0 ? `${spec.description} (${notes.join('; ')})` : spec.description);
}

/**
 * Each option's value: the flag's, else its environment variable's, else the config file's (a
 * configurable command), else its default. Text is read through the option's parser, whose
 * error names where the bad value came from (the flag, the variable, the file and key).
 */
function resolveValues(spec: CommandSpec, table: OptionTable, parsed: Command): Record<string, unknown> {
  const given = parsed.opts();
  const explicit = (name: string): unknown => {
    const option = table[name]!;
    const key = commanderOption(name, option).attributeName();
    const fromFlag = parsed.getOptionValueSource(key) === 'cli' ? (given[key] as string | boolean) : undefined;
    if (typeof fromFlag === 'boolean') return fromFlag;
    if (fromFlag !== undefined) return option.parse(fromFlag, `--${name}`);
    const fromEnv = option.env ? process.env[option.env] || undefined : undefined;
    return fromEnv === undefined ? undefined : option.parse(fromEnv, option.env!);
  };
  const file = spec.configurable ? configFile(spec.options, explicit) : undefined;
  const values: Record<string, unknown> = {};
  for (const [name, option] of Object.entries(table)) {
    const value = explicit(name) ?? file?.values[name];
    if (value === undefined && option.required) throw new CliError(`--${name} is required`);
    values[name] = value ?? option.default;
  }
  return values;
}

/** The file `--config` names, else the data directory's (found once the directory itself is known). */
function configFile(options: OptionTable, explicit: (name: string) => unknown): ConfigValues | undefined {
  const named = explicit('config') as string | undefined;
  if (named !== undefined) return readConfigFile(resolve(named), options, false);
  const dataDir = (explicit('data') ?? options.data?.default) as string | undefined;
  const found = dataDir === undefined ? undefined : findConfigFile(dataDir);
  return found === undefined ? undefined : readConfigFile(found, options, true);
}

/** Commander's "error: unknown option '--x'" as "Unknown option '--x'". */
function commanderMessage(message: string): string {
  const text = message.trim().replace(/^error: /, '');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Commander reports its own errors (and prints help) before throwing: the process only ends with its code. */
export const isCommanderExit = (error: unknown): error is CommanderError => error instanceof CommanderError;
