#!/usr/bin/env node
import { BACKUP_USAGE, backupCommand } from './commands/backup.js';
import { CHANGE_USER_USAGE, changeUserCommand } from './commands/change-user.js';
import { CREATE_USER_USAGE, createUserCommand } from './commands/create-user.js';
import { EXPORT_USAGE, exportCommand } from './commands/export.js';
import { IMPORT_USAGE, importCommand } from './commands/import.js';
import { INIT_USAGE, initCommand } from './commands/init.js';
import { MIGRATE_USAGE, migrateCommand } from './commands/migrate.js';
import { RESTORE_USAGE, restoreCommand } from './commands/restore.js';
import { SERVE_USAGE, serveCommand } from './commands/serve.js';
import { CliError } from './data-dir.js';

const COMMANDS: Record<string, (argv: string[]) => Promise<void>> = {
  serve: serveCommand,
  init: initCommand,
  'create-user': createUserCommand,
  'change-user': changeUserCommand,
  migrate: migrateCommand,
  backup: backupCommand,
  restore: restoreCommand,
  export: exportCommand,
  import: importCommand,
};

const USAGE = [
  'Usage:',
  ...[SERVE_USAGE, INIT_USAGE, CREATE_USER_USAGE, CHANGE_USER_USAGE, MIGRATE_USAGE, BACKUP_USAGE, RESTORE_USAGE, EXPORT_USAGE, IMPORT_USAGE].map((u) => `  ${u}`),
].join('\n');

async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const command = COMMANDS[name];
  if (!command) throw new CliError(`unknown command '${name}'\n${USAGE}`);
  await command(rest);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  // Argument errors and refused operations are the user's to fix: no stack trace for them.
  const known = error instanceof CliError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  process.stderr.write(`teamchat: ${known ? (error as Error).message : String((error as Error)?.stack ?? error)}\n`);
  process.exit(1);
});
