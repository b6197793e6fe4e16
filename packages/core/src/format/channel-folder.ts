import type { ChannelFolder } from '../storage/types.js';

/** The channel folder object (openapi ChannelFolder; `order` since FL 414). */
export function formatChannelFolder(folder: ChannelFolder): Record<string, unknown> {
  return {
    id: folder.id,
    name: folder.name,
    description: folder.description,
    rendered_description: folder.renderedDescription,
    creator_id: folder.creatorId,
    date_created: folder.dateCreated,
    is_archived: folder.isArchived,
    order: folder.order,
  };
}
