/**
 * The `teamchat` program: commander parses the command line (unknown options and commands,
 * missing values, `--help` on every command), and each command's option table says what its
 * options are. Commander was chosen over hand-written node:util parseArgs calls for its
 * per-command help, "did you mean" suggestions and errors that name the option; it is widely
 * used, maintained, and has no dependencies of its own.
 */
import { Command, CommanderError, Option } from 'commander';
import type { CommandSpec, OptionSpec, OptionTable } from './command-spec.js';
import { CliError } from './data-dir.js';

/** Where an option's value came from, for messages that point at it. */
export type ValueSource = 'flag' | 'env' | 'default';

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
    for (const [name, option] of Object.entries(spec.options)) command.addOption(commanderOption(name, option));
    command.action(async (_options, parsed: Command) => spec.run(resolveValues(spec.options, parsed)));
  }
  return program;
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
 * Each option's value: the flag's, else its environment variable's, else its default; every
 * text read through the option's parser, and an error names where the bad value came from.
 */
function resolveValues<O extends OptionTable>(table: O, parsed: Command): Record<string, unknown> {
  const given = parsed.opts();
  const values: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(table)) {
    const key = commanderOption(name, spec).attributeName();
    const fromFlag = parsed.getOptionValueSource(key) === 'cli' ? (given[key] as string | boolean) : undefined;
    const fromEnv = spec.env ? process.env[spec.env] || undefined : undefined;
    if (typeof fromFlag === 'boolean') values[name] = fromFlag;
    else if (fromFlag !== undefined) values[name] = parseAs(spec, fromFlag, `--${name}`);
    else if (fromEnv !== undefined) values[name] = parseAs(spec, fromEnv, spec.env!);
    else if (spec.required) throw new CliError(`--${name} is required`);
    else values[name] = spec.default;
  }
  return values;
}

const parseAs = (spec: OptionSpec<unknown>, raw: string, source: string): unknown => spec.parse(raw, source);

/** Commander's "error: unknown option '--x'" as "Unknown option '--x'". */
function commanderMessage(message: string): string {
  const text = message.trim().replace(/^error: /, '');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Commander reports its own errors (and prints help) before throwing: the process only ends with its code. */
export const isCommanderExit = (error: unknown): error is CommanderError => error instanceof CommanderError;
