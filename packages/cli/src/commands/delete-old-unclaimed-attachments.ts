import { removeUnusedUploads } from '@teamchat/core';
import { withInstallation } from '../admin/context.js';
import { INSTALLATION_OPTIONS, jsonOption } from '../admin/options.js';
import { defineCommand, flag, integer, type OptionTable, type OptionValues } from '../command-spec.js';
import { orFail, printJson } from '../output.js';

const WEEK_SECONDS = 7 * 24 * 3600;

const options = {
  ...INSTALLATION_OPTIONS,
  weeks: integer({ value: 'WEEKS', description: 'delete the uploads no message links that are older than this', min: 0, max: 10_000, default: 5 }),
  'for-real': flag({ description: 'delete them (without it, only list them)' }),
  json: jsonOption,
} satisfies OptionTable;

export const deleteOldUnclaimedAttachmentsCommand = defineCommand({
  name: 'delete-old-unclaimed-attachments',
  summary: 'delete uploaded files no message links, older than --weeks (a dry run without --for-real)',
  description:
    'Lists the uploaded files of every realm that no message links (uploaded, then never sent or since edited away) and that are older than --weeks, and deletes them with --for-real. A file that a scheduled message links is kept. The server sweeps such files by itself after a shorter grace period.',
  options,
  run: deleteOldUnclaimedAttachments,
});

async function deleteOldUnclaimedAttachments(values: OptionValues<typeof options>): Promise<void> {
  const dryRun = !values['for-real'];
  const attachments = await withInstallation(values, async (ctx) => orFail(await removeUnusedUploads(ctx, values.weeks * WEEK_SECONDS, { dryRun })));
  if (values.json) {
    return printJson({
      deleted: !dryRun,
      attachments: attachments.map((a) => ({ id: a.id, realm_id: a.realmId, path_id: a.pathId, file_name: a.fileName, size: a.size, create_time: a.createTime })),
    });
  }
  process.stdout.write(`Unclaimed uploads older than ${values.weeks} weeks: ${attachments.length}\n`);
  for (const a of attachments) process.stdout.write(`* ${a.pathId} (${a.size} bytes, created ${new Date(a.createTime * 1000).toISOString()})\n`);
  process.stdout.write(dryRun ? 'This was a dry run: pass --for-real to delete them.\n' : `Deleted ${attachments.length} files.\n`);
}
