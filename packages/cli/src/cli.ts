#!/usr/bin/env node
import { COMMANDS } from './commands.js';
import { CliError } from './data-dir.js';
import { buildProgram, isCommanderExit } from './program.js';

async function main(argv: string[]): Promise<void> {
  const program = buildProgram(COMMANDS);
  // Bare `teamchat` is a request for the overview, not a mistake.
  if (argv.length === 0) {
    program.outputHelp();
    return;
  }
  await program.parseAsync(argv, { from: 'user' });
}

main(process.argv.slice(2)).catch((error: unknown) => {
  // Commander has already said what was wrong (or printed the help that was asked for).
  if (isCommanderExit(error)) process.exit(error.exitCode);
  // Argument errors and refused operations are the user's to fix: no stack trace for them.
  const known = error instanceof CliError;
  process.stderr.write(`teamchat: ${known ? (error as Error).message : String((error as Error)?.stack ?? error)}\n`);
  process.exit(1);
});
