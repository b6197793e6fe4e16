/**
 * The parts of a Zulip organisation export (`manage.py export`) the import reads. Field names are
 * the reference's model fields as its export writes them (foreign keys by ID under the field's
 * name, times as Unix seconds with a fraction). Everything is optional that older or newer
 * exports may lack.
 */
export type ZRow = Record<string, unknown>;

/** realm.json: one list of rows per table, `zerver_realm` holding the one realm. */
export interface ZulipRealmFile {
  zerver_realm: ZRow[];
  zerver_userprofile: ZRow[];
  zerver_userprofile_crossrealm?: ZRow[];
  zerver_userprofile_mirrordummy?: ZRow[];
  zerver_stream?: ZRow[];
  zerver_recipient?: ZRow[];
  zerver_subscription?: ZRow[];
  /** Group DMs: `zerver_huddle` until the reference renamed the model to DirectMessageGroup. */
  zerver_huddle?: ZRow[];
  zerver_directmessagegroup?: ZRow[];
  zerver_reaction?: ZRow[];
  zerver_realmemoji?: ZRow[];
  zerver_client?: ZRow[];
  zerver_usergroup?: ZRow[];
  zerver_namedusergroup?: ZRow[];
  zerver_usergroupmembership?: ZRow[];
  zerver_groupgroupmembership?: ZRow[];
  zerver_defaultstream?: ZRow[];
  zerver_realmdomain?: ZRow[];
  zerver_usertopic?: ZRow[];
  zerver_muteduser?: ZRow[];
  zerver_alertword?: ZRow[];
  zerver_userstatus?: ZRow[];
  zerver_realmfilter?: ZRow[];
  zerver_realmplayground?: ZRow[];
  zerver_customprofilefield?: ZRow[];
  zerver_customprofilefieldvalue?: ZRow[];
}

/** messages-000001.json, …: messages and each recipient's copy (`flags_mask` is the flags bitfield). */
export interface ZulipMessageFile {
  zerver_message: ZRow[];
  zerver_usermessage: ZRow[];
}

/** attachment.json: each attachment with the IDs of the messages that reference it. */
export interface ZulipAttachmentFile {
  zerver_attachment: ZRow[];
}

/** `uploads/records.json`, `avatars/records.json`, `emoji/records.json`: one record per stored file. */
export interface ZulipFileRecord {
  path: string;
  realm_id?: number;
  user_profile_id?: number;
  file_name?: string;
  [key: string]: unknown;
}

/** Recipient.type in the reference. */
export const RECIPIENT_PERSONAL = 1;
export const RECIPIENT_STREAM = 2;
export const RECIPIENT_DIRECT_MESSAGE_GROUP = 3;

/**
 * UserMessage flag bits in the reference (its AbstractUserMessage.ALL_FLAGS order: bit 4 was
 * `wildcard_mentioned`, bit 5 the unused `summarize_in_home` that topic wildcards took over) that
 * teamchat keeps, with teamchat's name for each. The others (summarize_in_stream / group
 * mentions, force_*, is_private, active_mobile_push_notification) are bookkeeping of its own.
 */
export const ZULIP_FLAG_BITS: readonly (readonly [number, string])[] = [
  [1 << 0, 'read'],
  [1 << 1, 'starred'],
  [1 << 2, 'collapsed'],
  [1 << 3, 'mentioned'],
  [1 << 4, 'stream_wildcard_mentioned'],
  [1 << 5, 'topic_wildcard_mentioned'],
  [1 << 9, 'has_alert_word'],
  [1 << 10, 'historical'],
];
