import { ok } from 'neverthrow';
import { formatChannelFolder } from '../format/channel-folder.js';
import { type Actor, userOperation } from '../operation.js';
import { GetChannelFoldersParams } from '../schemas/channel-folders.js';

/** GET /channel_folders: the realm's folders in their order (FL 414), archived ones on request. Any user, guests too. */
export const getChannelFolders = userOperation(GetChannelFoldersParams, async (ctx, actor: Actor, params) => {
  const folders = await ctx.storage.read((tx) => tx.channelFolders.list(actor.realm.id));
  return ok({ channel_folders: folders.filter((f) => params.include_archived || !f.isArchived).map(formatChannelFolder) });
});
