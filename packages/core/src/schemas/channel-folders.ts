/** Input of the channel-folder endpoints (openapi /channel_folders, FL 389 and 414). */
import { type } from './known-structs.js';
import { defaulted, Int, JsonBool, List, optional, PathInt, Text } from './wire.js';

/** The reference's limits (ChannelFolder.MAX_NAME_LENGTH, MAX_DESCRIPTION_LENGTH), also in register. */
export const MAX_CHANNEL_FOLDER_NAME_LENGTH = 60;
export const MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH = 1024;

const Name = Text({ max: MAX_CHANNEL_FOLDER_NAME_LENGTH });
const Description = Text({ max: MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH, noNul: true });

/** POST /channel_folders/create: both parameters are required, as in the reference. */
export const CreateChannelFolderParams = type({ name: Name, description: Description });

export const GetChannelFoldersParams = type({ include_archived: defaulted(JsonBool, false) });

export const UpdateChannelFolderParams = type({
  channel_folder_id: PathInt,
  name: optional(Name),
  description: optional(Description),
  is_archived: optional(JsonBool),
});

/** PATCH /channel_folders (FL 414): every folder ID of the realm, archived ones included. */
export const ReorderChannelFoldersParams = type({ order: List(Int) });
