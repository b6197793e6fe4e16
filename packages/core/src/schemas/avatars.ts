/** Input of the avatar endpoints. The image arrives as an uploaded file among the parameters (schemas/upload.ts). */
import { type } from './known-structs.js';
import { Str } from './wire.js';

/** POST /users/me/avatar: exactly one image file, under any field name. */
export const UploadAvatarParams = type({});

/** DELETE /users/me/avatar. */
export const DeleteAvatarParams = type({});

/** GET /user_avatars/{realm_id}/{file}: the path as given (a realm ID that is not a number is just not found). */
export const AvatarImageParams = type({ realm_id: Str, file: Str });

/** GET /avatar/{user_id_or_email} and /avatar/{user_id_or_email}/medium. */
export const AvatarRedirectParams = type({ user_id_or_email: Str });
