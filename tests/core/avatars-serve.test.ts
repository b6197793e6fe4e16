/**
 * Reading avatars: the uploaded images at their URLs (GET /user_avatars/{realm_id}/{file}) and
 * the /avatar/{user_id_or_email} redirect, for users, spectators and other realms.
 */
import { doUpdateRealm, doUploadAvatar, getAvatarImage, getAvatarRedirect, getMediumAvatarRedirect, type Realm, type User } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { makeWorld, must, type World } from '../helpers/core.js';
import { expectError, fakeClock, secondRealm } from './fixtures.js';
import { imageFile, png, pngSize } from './image-fixtures.js';
import { setAccessGroup } from './user-access-helpers.js';

async function world() {
  const w = await makeWorld({ clock: fakeClock(), config: { timers: false } });
  const member = await w.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
  const guest = await w.addUser({ email: 'gus@example.com', fullName: 'Gus Guest', role: 600 });
  const url = must(await doUploadAvatar(w.ctx, w.as(member), { file: imageFile(png(40, 40)) })).avatar_url;
  const file = new URL(url).pathname.split('/').pop()!;
  return { w, member, guest, url, file };
}

const realmNow = async (w: World): Promise<Realm> => (await w.ctx.storage.read((tx) => tx.realms.byId(w.realm.id)))!;
const image = (w: World, realm: Realm, user: User | null, realmId: string | number, file: string) =>
  getAvatarImage(w.ctx, { realm, user }, { realm_id: String(realmId), file });

describe('getAvatarImage', () => {
  it('serves both sizes of the current upload to users of the realm, as PNG cached for good', async () => {
    const { w, guest, file } = await world();
    const small = must(await image(w, w.realm, guest, w.realm.id, file));
    expect(small).toMatchObject({ contentType: 'image/png', versioned: true });
    expect(pngSize(small.bytes)).toEqual([100, 100]);
    const medium = must(await image(w, w.realm, guest, w.realm.id, file.replace('.png', '-medium.png')));
    expect(pngSize(medium.bytes)).toEqual([500, 500]);
  });

  it('does not find replaced versions, other names, or the file under another realm', async () => {
    const { w, member, guest, file } = await world();
    must(await doUploadAvatar(w.ctx, w.as(member), { file: imageFile(png(8, 8)) }));
    expectError(await image(w, w.realm, guest, w.realm.id, file), 'NOT_FOUND', 'Not found', 404);
    for (const name of ['x.png', `${'a'.repeat(32)}.png`, `${'A'.repeat(32)}.png`, '..png', `${file}.png`]) {
      expectError(await image(w, w.realm, guest, w.realm.id, name), 'NOT_FOUND', 'Not found', 404);
    }
    const other = await secondRealm(w.ctx);
    const current = new URL(must(await doUploadAvatar(w.ctx, w.as(member), { file: imageFile(png(8, 8)) })).avatar_url).pathname.split('/').pop()!;
    // Asked through the other realm's host, the first realm's avatar is not there.
    expectError(await image(w, other.realm, other.owner, w.realm.id, current), 'NOT_FOUND', 'Not found', 404);
    expectError(await image(w, other.realm, other.owner, other.realm.id, current), 'NOT_FOUND', 'Not found', 404);
    expectError(await image(w, w.realm, guest, 'x', current), 'NOT_FOUND', 'Not found', 404);
  });

  it('serves spectators only where the realm admits them', async () => {
    const { w, file } = await world();
    expectError(await image(w, w.realm, null, w.realm.id, file), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    must(await doUpdateRealm(w.ctx, w.as(w.owner), { enable_spectator_access: true }));
    expect(must(await image(w, await realmNow(w), null, w.realm.id, file)).contentType).toBe('image/png');
  });
});

describe('getAvatarRedirect', () => {
  it('sends users to the current avatar URL, by ID or by email, in both sizes', async () => {
    const { w, member, guest, url } = await world();
    expect(must(await getAvatarRedirect(w.ctx, w.as(guest), { user_id_or_email: String(member.id) }))).toEqual({ location: url });
    expect(must(await getAvatarRedirect(w.ctx, w.as(guest), { user_id_or_email: 'mel@example.com' }))).toEqual({ location: url });
    expect(must(await getMediumAvatarRedirect(w.ctx, w.as(guest), { user_id_or_email: String(member.id) }))).toEqual({ location: url.replace('.png?', '-medium.png?') });
    // A user without an upload: the external service.
    expect(must(await getAvatarRedirect(w.ctx, w.as(member), { user_id_or_email: String(guest.id) })).location).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=1$/);
  });

  it('treats a name of nobody (or another realm’s user) as a new address on the external service, as the reference', async () => {
    const { w, member } = await world();
    const other = await secondRealm(w.ctx);
    const unknown = must(await getAvatarRedirect(w.ctx, w.as(member), { user_id_or_email: 'nobody@example.com' })).location;
    expect(unknown).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=1$/);
    const foreign = must(await getAvatarRedirect(w.ctx, w.as(member), { user_id_or_email: String(other.owner.id) })).location;
    expect(foreign).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\//);
    expect(foreign).not.toContain('/user_avatars/');
  });

  it('gives a restricted guest the unknown-user image for users they may not access', async () => {
    const { w, member, guest } = await world();
    await setAccessGroup(w, 'role:members');
    const location = must(await getAvatarRedirect(w.ctx, { realm: await realmNow(w), user: guest }, { user_id_or_email: String(member.id) })).location;
    expect(location).toBe('http://chat.example.com/static/images/unknown-user-avatar.png');
  });

  it('lets spectators of an open realm name users by ID only; others not at all', async () => {
    const { w, member, url } = await world();
    const unauthorized = ['UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401] as const;
    expectError(await getAvatarRedirect(w.ctx, { realm: w.realm, user: null }, { user_id_or_email: String(member.id) }), ...unauthorized);
    must(await doUpdateRealm(w.ctx, w.as(w.owner), { enable_spectator_access: true }));
    const realm = await realmNow(w);
    expect(must(await getAvatarRedirect(w.ctx, { realm, user: null }, { user_id_or_email: String(member.id) }))).toEqual({ location: url });
    expectError(await getAvatarRedirect(w.ctx, { realm, user: null }, { user_id_or_email: 'mel@example.com' }), ...unauthorized);
  });

  it('sends users of source J to a generated identicon rather than back to itself', async () => {
    const { w, member } = await world();
    await w.ctx.storage.transaction(async (tx) => {
      await tx.users.update(w.realm.id, member.id, { avatarSource: 'J' });
      return { isOk: () => true, isErr: () => false, value: undefined } as never;
    });
    const location = must(await getAvatarRedirect(w.ctx, w.as(w.owner), { user_id_or_email: String(member.id) })).location;
    expect(location).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&f=y&version=\d+$/);
  });
});
