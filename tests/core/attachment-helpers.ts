/** Shared pieces of the attachment tests: uploading, listing and downloading as a user. */
import { type AttachmentRecord, doUploadFile, getAttachments, getUploadedFile, type UploadedFile, type User } from '@teamchat/core';
import { must, type World } from '../helpers/core.js';

export const text = (s: string) => new TextEncoder().encode(s);
export const file = (name: string, content = 'hello', contentType = 'text/plain'): UploadedFile => ({ filename: name, contentType, bytes: text(content) });

export interface Uploaded {
  uri: string;
  url: string;
  filename: string;
  /** The URL without its `/user_uploads/` prefix. */
  pathId: string;
}

/** POST /user_uploads as `user`; returns the response with the path_id. */
export async function uploadAs(w: World, user: User, upload: UploadedFile = file('notes.txt')): Promise<Uploaded> {
  const response = must(await doUploadFile(w.ctx, w.as(user), { file: upload }));
  return { ...response, pathId: response.url.slice('/user_uploads/'.length) };
}

/** GET /attachments as `user`. */
export async function attachmentsOf(w: World, user: User): Promise<{ attachments: AttachmentRecord[]; upload_space_used: number }> {
  return must(await getAttachments(w.ctx, w.as(user), {}));
}

/** GET /user_uploads/{path_id} as `user` (null: unauthenticated): the core result. */
export function download(w: World, user: User | null, pathId: string) {
  const [realmId, ...rest] = pathId.split('/');
  return getUploadedFile.fromTransport(w.ctx, w.as(user), { realm_id: realmId, filename: rest.join('/') });
}

/** Whether `user` may download the file. */
export const canDownload = async (w: World, user: User, pathId: string) => (await download(w, user, pathId)).isOk();

/** Markdown linking an upload, as clients write it. */
export const linkTo = (upload: Uploaded) => `[${upload.filename}](${upload.url})`;
