/** Input of the upload and attachment endpoints. Files come among the parameters (schemas/upload.ts). */
import { type } from './known-structs.js';
import { PathInt, Str } from './wire.js';

/** POST /user_uploads: one file, under any field name. */
export const UploadFileParams = type({});

/** GET /attachments. */
export const GetAttachmentsParams = type({});

/** DELETE /attachments/{attachment_id}. */
export const DeleteAttachmentParams = type({ attachment_id: PathInt });

/** GET /user_uploads/{realm_id}/{filename…}: the realm part is compared as text, so any value is a 404, not a 400. */
export const UploadedFileParams = type({ realm_id: Str, filename: Str });

/** GET /user_uploads/temporary/{token}/{filename}. */
export const TemporaryFileParams = type({ token: Str, filename: Str });
