import { renderMessage } from '../markdown/index.js';
import { renderContextFor } from '../messages/render-context.js';
import type { Realm } from '../storage/types.js';

/**
 * The realm description as HTML (register's realm_description, GET /server_settings, the
 * realm/update_dict event): Markdown in the message dialect, as the reference renders it.
 * Nothing realm-specific is resolved (no mentions or channel links): the description is
 * public, readable by spectators before they log in.
 */
export function renderRealmDescription(realm: Realm, description: string, now: Date): string {
  return renderMessage(description, renderContextFor(realm, [], [], now)).html;
}
