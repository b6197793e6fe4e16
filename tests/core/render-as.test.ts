/**
 * renderAs reads the realm's users, channels and groups only when the renderer looks one up;
 * whatever it reads, the result must equal the render with every directory loaded.
 */
import { doCreateUserGroup, doSubscribe } from '@teamchat/core';
import { ok } from 'neverthrow';
import { expect, it } from 'vitest';
import { renderAs } from '../../packages/core/src/messages/render-as.js';
import { hasContentAccess } from '../../packages/core/src/access/channel-rules.js';
import { renderMessage } from '../../packages/core/src/markdown/index.js';
import { realmLinkifiers } from '../../packages/core/src/linkifiers/for-render.js';
import { renderContextFor } from '../../packages/core/src/messages/render-context.js';
import type { Tx, User } from '../../packages/core/src/storage/types.js';
import { makeWorld, must } from '../helpers/core.js';

/** The render with every directory read up front, as every send did before. */
async function fullyLoaded(tx: Tx, sender: User, content: string, nowMs: number) {
  const realm = (await tx.realms.byId(sender.realmId))!;
  const subscribed = new Set((await tx.subscriptions.forUser(realm.id, sender.id)).filter((s) => s.active).map((s) => s.streamId));
  const linkable = (await tx.streams.list(realm.id)).filter((s) => !s.isArchived && hasContentAccess(sender, s, subscribed.has(s.id)));
  return renderMessage(
    content,
    renderContextFor(
      realm,
      await tx.users.list(realm.id),
      linkable,
      new Date(nowMs),
      await tx.realmEmoji.list(realm.id),
      await realmLinkifiers(tx, realm.id),
      await tx.userGroups.list(realm.id),
    ),
  );
}

it('renders mentions, channel links and group mentions exactly as with everything loaded', async () => {
  const w = await makeWorld({ config: { timers: false } });
  const bob = await w.addUser({ email: 'bob@example.com', fullName: 'Bob Builder' });
  must(await doSubscribe(w.ctx, w.as(w.owner), { subscriptions: [{"name":"general"}], principals: [w.owner.id,bob.id] }));
  // A private channel the owner is not in: it must not be linked for the owner.
  must(await doSubscribe(w.ctx, w.as(bob), { subscriptions: [{"name":"hideout"}], invite_only: true }));
  must(await doCreateUserGroup(w.ctx, w.as(w.owner), { name: 'builders', description: '', members: [bob.id] }));

  const contents = [
    'plain **text** with :smile: and no lookups',
    'Hi @**Bob Builder** and @_**Olivia Owner|1**, see #**general** and #**hideout** and #**nowhere**',
    'only a channel: #**general>topic**',
    'only a group: @*builders* and @*nobody*',
    'a user by ID @**|2** and a missing one @**Nobody**',
    '> quoted @**Bob Builder**\n\n```\n@**Bob Builder** in code\n```',
  ];
  const now = Date.UTC(2026, 0, 1);
  await w.ctx.storage.read(async (tx) => {
    const realm = (await tx.realms.byId(w.owner.realmId))!;
    for (const content of contents) {
      expect(await renderAs(tx, realm, w.owner, content, now)).toEqual(await fullyLoaded(tx, w.owner, content, now));
    }
    // The lookups did resolve: a mention, a link to the visible channel, none to the private one.
    const { html } = await renderAs(tx, realm, w.owner, contents[1]!, now);
    expect(html).toContain(`data-user-id="${bob.id}"`);
    expect(html).toContain('#general</a>');
    expect(html).not.toContain('#hideout</a>');
    expect((await renderAs(tx, realm, w.owner, contents[3]!, now)).html).toContain('user-group-mention');
  });
});

it('reads the custom emoji only for a message that names an emoji, and renders them as with everything loaded', async () => {
  const w = await makeWorld({ config: { timers: false } });
  const realmId = w.owner.realmId;
  await w.ctx.storage.transaction(async (tx) => {
    // A custom emoji shadows the unicode emoji of its name; a deactivated one does not.
    await tx.realmEmoji.insert({ realmId, name: 'smile', authorId: w.owner.id, deactivated: false, contentType: 'image/png' }, new Uint8Array([1]));
    await tx.realmEmoji.insert({ realmId, name: 'heart', authorId: w.owner.id, deactivated: true, contentType: 'image/png' }, new Uint8Array([1]));
    return ok(undefined);
  });
  const contents = ['no emoji here', ':smile: and :heart: and :octopus:', 'an emoticon :) and 😀', ':nope: only'];
  const now = Date.UTC(2026, 0, 1);
  await w.ctx.storage.read(async (tx) => {
    const realm = (await tx.realms.byId(realmId))!;
    for (const content of contents) {
      expect(await renderAs(tx, realm, w.owner, content, now)).toEqual(await fullyLoaded(tx, w.owner, content, now));
    }
    const { html } = await renderAs(tx, realm, w.owner, contents[1]!, now);
    expect(html).toContain('/emoji/images/');
    expect(html).toContain('emoji-2764');
  });
});
