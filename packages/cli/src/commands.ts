import type { CommandSpec } from './command-spec.js';
import { backupCommand } from './commands/backup.js';
import { changeUserCommand } from './commands/change-user.js';
import { createUserCommand } from './commands/create-user.js';
import { initCommand } from './commands/init.js';
import { migrateCommand } from './commands/migrate.js';
import { restoreCommand } from './commands/restore.js';
import { serveCommand } from './commands/serve.js';

/** Every `teamchat` command, in the order `teamchat --help` lists them. */
export const COMMANDS: readonly CommandSpec[] = [serveCommand, initCommand, createUserCommand, changeUserCommand, migrateCommand, backupCommand, restoreCommand];
