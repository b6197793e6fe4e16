/**
 * What the signed-in user may do to a message, from the realm's limits as register gave them.
 * The server decides in the end; these only keep buttons that would fail out of sight.
 */
import type { Settings } from '../stores/chat';
import type { Message } from '../stores/types';

function withinLimit(message: Message, limitSeconds: unknown, nowSeconds: number): boolean {
  return typeof limitSeconds !== 'number' || limitSeconds === 0 || nowSeconds - message.timestamp <= limitSeconds;
}

export function canEdit(message: Message, ownId: number, realm: Settings, nowSeconds: number): boolean {
  if (message.sender_id !== ownId || realm.allow_message_editing === false) return false;
  return withinLimit(message, realm.message_content_edit_limit_seconds, nowSeconds);
}

export function isAdmin(realm: Settings): boolean {
  return realm.is_admin === true || realm.is_owner === true;
}

export function canDelete(message: Message, ownId: number, realm: Settings, nowSeconds: number): boolean {
  if (isAdmin(realm)) return true;
  return message.sender_id === ownId && withinLimit(message, realm.message_content_delete_limit_seconds, nowSeconds);
}

/** Moving and resolving topics: anyone but guests is offered it (the realm's groups may still refuse; the server says so). */
export function canMoveTopic(message: Message, realm: Settings): boolean {
  return message.type === 'stream' && realm.is_guest !== true;
}
