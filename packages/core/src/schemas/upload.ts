/**
 * Uploaded files as the core sees them: bytes with the name and type the client gave, whatever
 * the transport (the HTTP adapter builds these from multipart parts; in-process callers pass
 * them directly). Files arrive among an operation's parameters under any name, as the
 * reference reads every file of a request whatever its field is called.
 */

/** One uploaded file. `contentType` is the client's claim; check the bytes before trusting it. */
export interface UploadedFile {
  filename: string;
  contentType: string;
  bytes: Uint8Array;
}

/** Whether a parameter value is an uploaded file. */
export function isUploadedFile(value: unknown): value is UploadedFile {
  if (typeof value !== 'object' || value === null) return false;
  const file = value as Partial<UploadedFile>;
  return file.bytes instanceof Uint8Array && typeof file.filename === 'string' && typeof file.contentType === 'string';
}

/** The uploaded files among an operation's input, in parameter order. */
export function uploadedFiles(input: unknown): UploadedFile[] {
  if (typeof input !== 'object' || input === null) return [];
  return Object.values(input).filter(isUploadedFile);
}
