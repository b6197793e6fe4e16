/**
 * The attachment part of the storage contract: files users uploaded (their bytes live in the
 * context's blob store, keyed by `pathId`) and which messages link them. See types.ts for the
 * isolation rules every store follows.
 */

/** An uploaded file's record (the reference's Attachment). */
export interface Attachment {
  id: number;
  realmId: number;
  /** The uploader. */
  ownerId: number;
  /** `{realm_id}/{random}/{sanitized name}`: the URL path after `/user_uploads/` and the blob key. */
  pathId: string;
  /** The sanitized file name, as served. */
  fileName: string;
  /** Bytes. */
  size: number;
  contentType: string;
  /** Unix seconds. */
  createTime: number;
}

/** An uploaded file to record. */
export type NewAttachment = Omit<Attachment, 'id'>;

/** Uploaded files' records and the messages that link them (the bytes are in the context's BlobStore). */
export interface AttachmentStore {
  /** Stores a record; a `pathId` already stored (in any realm) throws. */
  insert(attachment: NewAttachment): Promise<Attachment>;
  byId(realmId: number, id: number): Promise<Attachment | undefined>;
  /** The realm's attachment stored under `pathId`, or undefined. */
  byPathId(realmId: number, pathId: string): Promise<Attachment | undefined>;
  /** The realm's attachments among `pathIds` (unknown ones left out), by ID ascending. */
  byPathIds(realmId: number, pathIds: readonly string[]): Promise<Attachment[]>;
  /** A user's uploads, by ID ascending. */
  listByOwner(realmId: number, ownerId: number): Promise<Attachment[]>;
  /** IDs of the messages linking each attachment, ascending; attachments without links map to `[]`. */
  messageIds(attachmentIds: readonly number[]): Promise<Map<number, number[]>>;
  /** IDs of the attachments the messages link, ascending and each once. */
  linkedTo(messageIds: readonly number[]): Promise<number[]>;
  /** Links attachments to a message; existing links stay. */
  link(messageId: number, attachmentIds: readonly number[]): Promise<void>;
  /** Removes links of a message. (Deleting a message removes its links as well.) */
  unlink(messageId: number, attachmentIds: readonly number[]): Promise<void>;
  /** Deletes the realm's attachment with its links; false when there was none. */
  delete(realmId: number, id: number): Promise<boolean>;
  /** Total bytes of the realm's attachments (`upload_space_used`). */
  spaceUsed(realmId: number): Promise<number>;
  /** Every realm's attachments no message links that were created before `createdBeforeSeconds`, by ID. */
  unusedBefore(createdBeforeSeconds: number): Promise<Attachment[]>;
}
