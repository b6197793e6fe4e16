import { createHash } from 'node:crypto';
import type { Ctx } from '../context.js';
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

/**
 * The realm's stored description as HTML, rendered once per description (ctx.realmMemo). Only
 * the realm URL and the text itself enter the rendering; a `<time:…>` whose meaning depends on
 * the current date is rendered afresh each time.
 */
export function realmDescriptionHtml(ctx: Ctx, realm: Realm): string {
  const render = () => renderRealmDescription(realm, realm.description, new Date(ctx.clock.now()));
  if (realm.description.includes('<time:')) return render();
  return ctx.realmMemo.get('description', realm.id, [realm.url, realm.description], render);
}

/** The generated icon a realm has until one is uploaded (gravatar's identicon of its UUID). */
export function realmIconUrl(realm: Pick<Realm, 'uuid'>): string {
  const hash = createHash('md5').update(realm.uuid).digest('hex');
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon`;
}
