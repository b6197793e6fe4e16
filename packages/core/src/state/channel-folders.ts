import { formatChannelFolder } from '../format/channel-folder.js';
import { defineSection } from './sections.js';

/**
 * The `channel_folders` section: every folder of the realm, archived ones included, so that
 * the `channel_folder` update events (archiving among them) apply to the list a client keeps.
 * A spectator sees only the folders holding a web-public channel (the reference's
 * get_channel_folders_for_spectators).
 */
export const channelFoldersSection = defineSection({
  key: 'channel_folders',
  eventTypes: ['channel_folder'],
  async fetch(_ctx, tx, { realm, user }) {
    let folders = await tx.channelFolders.list(realm.id);
    if (!user) {
      const shown = new Set((await tx.streams.list(realm.id)).filter((s) => s.isWebPublic && !s.isArchived).map((s) => s.folderId));
      folders = folders.filter((f) => shown.has(f.id));
    }
    return { channel_folders: folders.map(formatChannelFolder) };
  },
});
