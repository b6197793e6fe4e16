import type { CommandSpec } from './command-spec.js';
import { backupCommand } from './commands/backup.js';
import { changePasswordCommand } from './commands/change-password.js';
import { changeUserRoleCommand } from './commands/change-user-role.js';
import { createRealmCommand } from './commands/create-realm.js';
import { deleteOldUnclaimedAttachmentsCommand } from './commands/delete-old-unclaimed-attachments.js';
import { listRealmsCommand } from './commands/list-realms.js';
import { listUsersCommand } from './commands/list-users.js';
import { printZuliprcCommand } from './commands/print-zuliprc.js';
import { regenerateApiKeyCommand } from './commands/regenerate-api-key.js';
import { sendMessageCommand } from './commands/send-message.js';
import { deactivateUserCommand, reactivateUserCommand } from './commands/user-activation.js';
import { changeUserCommand } from './commands/change-user.js';
import { createUserCommand } from './commands/create-user.js';
import { exportCommand } from './commands/export.js';
import { importCommand } from './commands/import.js';
import { initCommand } from './commands/init.js';
import { migrateCommand } from './commands/migrate.js';
import { restoreCommand } from './commands/restore.js';
import { serveCommand } from './commands/serve.js';

/** Every `teamchat` command, in the order `teamchat --help` lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  serveCommand,
  initCommand,
  migrateCommand,
  backupCommand,
  restoreCommand,
  exportCommand,
  importCommand,
  listRealmsCommand,
  createRealmCommand,
  listUsersCommand,
  createUserCommand,
  changeUserCommand,
  changeUserRoleCommand,
  changePasswordCommand,
  deactivateUserCommand,
  reactivateUserCommand,
  regenerateApiKeyCommand,
  printZuliprcCommand,
  sendMessageCommand,
  deleteOldUnclaimedAttachmentsCommand,
];
