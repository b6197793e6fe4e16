/**
 * The wire shapes the app reads, trimmed to the fields it uses. The client's own types are the
 * server's full records; these keep the stores readable and their fixtures short.
 */
export interface Reaction {
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  user_id: number;
}

export interface DisplayRecipient {
  id: number;
  email: string;
  full_name: string;
}

export interface Message {
  id: number;
  sender_id: number;
  sender_full_name: string;
  sender_email: string;
  avatar_url: string | null;
  timestamp: number;
  type: 'stream' | 'private';
  stream_id?: number;
  subject: string;
  display_recipient: string | DisplayRecipient[];
  content: string;
  flags: string[];
  reactions: Reaction[];
  last_edit_timestamp?: number;
  last_moved_timestamp?: number;
}

export interface Person {
  user_id: number;
  full_name: string;
  email: string;
  avatar_url: string | null;
  is_active: boolean;
  is_bot: boolean;
  role: number;
  timezone?: string;
}

export interface Subscription {
  stream_id: number;
  name: string;
  color: string;
  description: string;
  invite_only: boolean;
  is_muted?: boolean;
  in_home_view?: boolean;
  pin_to_top?: boolean;
}

/** The server's roles: lower is more privileged. */
export const ROLE = { owner: 100, admin: 200, moderator: 300, member: 400, guest: 600 } as const;
