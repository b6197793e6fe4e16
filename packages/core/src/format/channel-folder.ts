import type { ChannelFolder } from '../storage/types.js';

/** A channel folder (openapi ChannelFolder), as GET /channel_folders and its events carry it. */
export interface ApiChannelFolder {
  id: number;
  name: string;
  /** Markdown source. */
  description: string;
  rendered_description: string;
  creator_id: number | null;
  /** UNIX seconds. */
  date_created: number;
  is_archived: boolean;
  /** Position among the realm's folders (FL 414). */
  order: number;
}

/** The channel folder object (openapi ChannelFolder; `order` since FL 414). */
export function formatChannelFolder(folder: ChannelFolder): ApiChannelFolder {
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
