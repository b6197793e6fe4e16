/**
 * POST and DELETE /users/me/avatar: the stored images, avatar_source and avatar_version, the
 * realm_user avatar update (applied to a register snapshot it must equal a fresh one, as the
 * reference's verify_action), who receives it, and every refusal (which writes nothing).
 */
import { type BlobStore, type RegisterResponse, doDeleteAvatar, doRegister, doUpdateRealm, doUploadAvatar, getEvents, memoryBlobStore, silentLogger, type User } from '@teamchat/core';
import type { LoosePublishedEvent, LooseQueuedEvent as QueuedEvent } from '../helpers/events.js';
import { describe, expect, it } from 'vitest';
import { makeWorld, must, type World } from '../helpers/core.js';
import { applyEvents, normalized } from './apply-events.js';
import { expectBadRequest, fakeClock, snapshot } from './fixtures.js';
import { GIF_1X1, imageFile, png, pngSize } from './image-fixtures.js';
import { setAccessGroup } from './user-access-helpers.js';

async function world(config: Record<string, unknown> = {}) {
  const w = await makeWorld({ clock: fakeClock(), config: { timers: false, ...config } });
  const admin = await w.addUser({ email: 'ada@example.com', fullName: 'Ada Admin', role: 200 });
  const member = await w.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
  const guest = await w.addUser({ email: 'gus@example.com', fullName: 'Gus Guest', role: 600 });
  return { w, admin, member, guest, blobs: w.ctx.uploads as unknown as { keys(): string[] } };
}

const stored = async (w: World, user: User) => (await snapshot(w.ctx, w.realm)).find((u) => u.id === user.id)!;
/** A caller with the realm as stored now (a realm setting changed since makeWorld). */
const asNow = async (w: World, user: User) => ({ realm: (await w.ctx.storage.read((tx) => tx.realms.byId(w.realm.id)))!, user });
const register = async (w: World, user: User, clientGravatar: boolean) =>
  must(await doRegister(w.ctx, await asNow(w, user), { fetch_event_types: ["realm_user"], client_gravatar: clientGravatar }));

/** Registers `users` (both client_gravatar forms), runs `action`, checks each snapshot, returns the events by user. */
async function verifyAction(w: World, users: User[], action: () => Promise<unknown>): Promise<Map<number, QueuedEvent[]>> {
  const observers: { user: User; clientGravatar: boolean; state: RegisterResponse }[] = [];
  for (const user of users) for (const clientGravatar of [false, true]) observers.push({ user, clientGravatar, state: await register(w, user, clientGravatar) });
  await action();
  const received = new Map<number, QueuedEvent[]>();
  const users_ = await snapshot(w.ctx, w.realm);
  for (const { user, clientGravatar, state } of observers) {
    const events = (must(await getEvents(w.ctx, await asNow(w, user), { queue_id: state.queue_id!, dont_block: true }))).events;
    const applied = await applyEvents(state, events, {
      clientGravatar,
      emailPublic: (id) => users_.find((u) => u.id === id)?.emailAddressVisibility === 1,
      webPublicAccess: false,
      refetchBots: async () => [],
    });
    expect(normalized(applied)).toEqual(normalized(await register(w, user, clientGravatar)));
    if (!clientGravatar) received.set(user.id, events);
  }
  return received;
}

const avatarKeys = (blobs: { keys(): string[] }) => blobs.keys().filter((k) => k.startsWith('avatars/'));

describe('doUploadAvatar', () => {
  it('stores a 100px and a 500px square PNG, sets source U, bumps the version and returns the new URL', async () => {
    const { w, member, blobs } = await world();
    const before = await stored(w, member);
    const result = must(await doUploadAvatar(w.ctx, w.as(member), { file: imageFile(png(300, 120), 'wide.jpg', 'application/octet-stream') }));
    const after = await stored(w, member);
    expect(after.avatarSource).toBe('U');
    expect(after.avatarVersion).toBe(before.avatarVersion + 1);
    expect(result.avatar_url).toMatch(new RegExp(`^http://chat\\.example\\.com/user_avatars/${w.realm.id}/[0-9a-f]{32}\\.png\\?version=${after.avatarVersion}$`));
    const file = /\/([0-9a-f]{32})\.png/.exec(result.avatar_url)![1];
    expect(avatarKeys(blobs)).toEqual([`avatars/${w.realm.id}/${file}-medium.png`, `avatars/${w.realm.id}/${file}.png`]);
    expect(pngSize((await w.ctx.uploads.get(`avatars/${w.realm.id}/${file}.png`))!)).toEqual([100, 100]);
    expect(pngSize((await w.ctx.uploads.get(`avatars/${w.realm.id}/${file}-medium.png`))!)).toEqual([500, 500]);
  });

  it('replaces the previous upload: a new URL per version, the old images removed', async () => {
    const { w, member, blobs } = await world();
    const first = must(await doUploadAvatar(w.ctx, w.as(member), { file: imageFile(png(10, 10)) })).avatar_url;
    const second = must(await doUploadAvatar(w.ctx, w.as(member), { file: imageFile(GIF_1X1, 'x.gif', 'image/gif') })).avatar_url;
    expect(second).not.toBe(first);
    expect(avatarKeys(blobs)).toHaveLength(2);
    expect(avatarKeys(blobs).every((key) => second.includes(key.split('/')[2]!.replace('-medium', '')))).toBe(true);
  });

  it('sends the realm_user avatar update after commit to everyone who may access the user, applied as a fresh register', async () => {
    const { w, admin, member, guest } = await world();
    const received = await verifyAction(w, [w.owner, admin, member, guest], async () => {
      must(await doUploadAvatar(w.ctx, w.as(member), { file: imageFile(png(20, 20)) }));
    });
    const after = await stored(w, member);
    const url = (await register(w, member, false)).realm_users as unknown as { user_id: number; avatar_url: string }[];
    const own = url.find((u) => u.user_id === member.id)!.avatar_url;
    for (const user of [w.owner, admin, member, guest]) {
      expect(received.get(user.id)!.map(({ id: _id, ...event }) => event)).toEqual([
        {
          type: 'realm_user',
          op: 'update',
          person: { user_id: member.id, avatar_source: 'U', avatar_url: own, avatar_url_medium: own.replace('.png?', '-medium.png?'), avatar_version: after.avatarVersion },
        },
      ]);
    }
  });

  it('does not tell a guest restricted by can_access_all_users_group about a user they may not access', async () => {
    const { w, member, guest } = await world();
    await setAccessGroup(w, 'role:members');
    const received = await verifyAction(w, [w.owner, guest], async () => {
      must(await doUploadAvatar(w.ctx, w.as(member), { file: imageFile(png(20, 20)) }));
    });
    expect(received.get(guest.id)).toEqual([]);
    expect(received.get(w.owner.id)).toHaveLength(1);
  });

  it('refuses anything but exactly one decodable image within the limit, writing and sending nothing', async () => {
    const { w, member, blobs } = await world({ maxAvatarFileSizeMib: 1 });
    const published: unknown[] = [];
    w.ctx.events.subscribe((event) => published.push(event));
    const upload = (input: Record<string, unknown>) => doUploadAvatar(w.ctx, w.as(member), input);
    expectBadRequest(await upload({}), 'You must upload exactly one avatar.');
    expectBadRequest(await upload({ a: imageFile(png(5, 5)), b: imageFile(png(5, 5)) }), 'You must upload exactly one avatar.');
    // A text field is not a file.
    expectBadRequest(await upload({ file: 'not a file' }), 'You must upload exactly one avatar.');
    const big = new Uint8Array(1024 * 1024 + 1);
    big.set(png(1, 1));
    expectBadRequest(await upload({ file: imageFile(big) }), 'Uploaded file is larger than the allowed limit of 1 MiB');
    // The claimed type and name do not make an image: the bytes do.
    expectBadRequest(await upload({ file: imageFile(new TextEncoder().encode('<svg onload=alert(1)>'), 'x.png', 'image/png') }), 'Invalid image format');
    // Image bytes at the start, garbage after.
    expectBadRequest(await upload({ file: imageFile(png(4, 4).slice(0, 30)) }), 'Could not decode image; did you upload an image file?');
    // A small file that declares a huge canvas is refused before it is decoded.
    expectBadRequest(await upload({ file: imageFile(png(1, 1, [0, 0, 0], [20000, 20000])) }), 'Image size exceeds limit.');
    expect(await stored(w, member)).toEqual(member);
    expect(avatarKeys(blobs)).toEqual([]);
    expect(published).toEqual([]);
  });

  it('honours avatar_changes_disabled (the realm’s or the server’s): administrators only', async () => {
    const { w, admin, member } = await world();
    must(await doUpdateRealm(w.ctx, w.as(w.owner), { avatar_changes_disabled: true }));
    const realm = (await w.ctx.storage.read((tx) => tx.realms.byId(w.realm.id)))!;
    const as = (user: User) => ({ realm, user });
    expectBadRequest(await doUploadAvatar(w.ctx, as(member), { file: imageFile(png(5, 5)) }), 'Avatar changes are disabled in this organization.');
    expectBadRequest(await doDeleteAvatar(w.ctx, as(member), {}), 'Avatar changes are disabled in this organization.');
    must(await doUploadAvatar(w.ctx, as(admin), { file: imageFile(png(5, 5)) }));
    expect(must(await doRegister(w.ctx, as(member), { fetch_event_types: ["realm"] }))).toMatchObject({
      realm_avatar_changes_disabled: true,
      server_avatar_changes_disabled: false,
      max_avatar_file_size_mib: 5,
    });

    const server = await world({ avatarChangesDisabled: true });
    expectBadRequest(await doUploadAvatar(server.w.ctx, server.w.as(server.member), { file: imageFile(png(5, 5)) }), 'Avatar changes are disabled in this organization.');
    must(await doUploadAvatar(server.w.ctx, server.w.as(server.admin), { file: imageFile(png(5, 5)) }));
    expect(must(await doRegister(server.w.ctx, server.w.as(server.member), { fetch_event_types: ["realm"] }))).toMatchObject({ server_avatar_changes_disabled: true });
  });

  it('checks avatar_changes_disabled as stored when the change is written, not as the caller was read', async () => {
    const { w, member } = await world();
    const stale = w.as(member);
    must(await doUpdateRealm(w.ctx, w.as(w.owner), { avatar_changes_disabled: true }));
    expectBadRequest(await doUploadAvatar(w.ctx, stale, { file: imageFile(png(5, 5)) }), 'Avatar changes are disabled in this organization.');
  });
});

describe('doUploadAvatar when the blob store fails', () => {
  it('rolls back: the user unchanged, nothing announced, no image left behind', async () => {
    const blobs = memoryBlobStore();
    const failing: BlobStore = {
      ...blobs,
      put: async (key, bytes) => {
        if (key.endsWith('-medium.png')) throw new Error('disk full');
        await blobs.put(key, bytes);
      },
    };
    const logged: unknown[] = [];
    const logger = { ...silentLogger, error: (fields: object) => void logged.push(fields) };
    const w = await makeWorld({ clock: fakeClock(), uploads: failing, logger, config: { timers: false } });
    const member = await w.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
    const published: unknown[] = [];
    w.ctx.events.subscribe((event) => published.push(event));
    const result = await doUploadAvatar(w.ctx, w.as(member), { file: imageFile(png(5, 5)) });
    expect(result._unsafeUnwrapErr().code).toBe('INTERNAL_SERVER_ERROR');
    expect(logged).toEqual([{ err: new Error('disk full') }]);
    expect(await stored(w, member)).toEqual(member);
    expect(published).toEqual([]);
    expect(blobs.keys()).toEqual([]);
  });
});

describe('doDeleteAvatar', () => {
  it('goes back to the realm’s default source with a new version, removes the images, and is idempotent', async () => {
    const { w, member, admin, blobs } = await world();
    must(await doUploadAvatar(w.ctx, w.as(member), { file: imageFile(png(5, 5)) }));
    const uploaded = await stored(w, member);
    let response: { avatar_url: string } | undefined;
    const received = await verifyAction(w, [admin, member], async () => {
      response = must(await doDeleteAvatar(w.ctx, w.as(member), {}));
    });
    const after = await stored(w, member);
    expect(after).toMatchObject({ avatarSource: 'G', avatarVersion: uploaded.avatarVersion + 1 });
    expect(response!.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=\d+$/);
    expect(received.get(admin.id)).toMatchObject([{ type: 'realm_user', op: 'update', person: { user_id: member.id, avatar_source: 'G', avatar_url: response!.avatar_url } }]);
    expect(avatarKeys(blobs)).toEqual([]);

    // FL 443: deleting again changes and sends nothing, and answers the same URL.
    const again = await verifyAction(w, [admin], async () => {
      expect(must(await doDeleteAvatar(w.ctx, w.as(member), {}))).toEqual(response);
    });
    expect(again.get(admin.id)).toEqual([]);
    expect(await stored(w, member)).toEqual(after);
  });

  it('uses the realm’s default_avatar_source J', async () => {
    const { w, member } = await world();
    await w.ctx.storage.transaction(async (tx) => {
      await tx.realms.update(w.realm.id, { defaultAvatarSource: 'J' });
      return { isOk: () => true, isErr: () => false, value: undefined } as never;
    });
    const realm = (await w.ctx.storage.read((tx) => tx.realms.byId(w.realm.id)))!;
    must(await doUploadAvatar(w.ctx, { realm, user: member }, { file: imageFile(png(5, 5)) }));
    const url = must(await doDeleteAvatar(w.ctx, { realm, user: member }, {})).avatar_url;
    expect((await stored(w, member)).avatarSource).toBe('J');
    expect(url).toBe(`http://chat.example.com/avatar/${member.id}?version=${(await stored(w, member)).avatarVersion}`);
  });
});

describe('avatar_changes_disabled in PATCH /realm', () => {
  it('is announced to every active user as realm update_dict, and only administrators may set it', async () => {
    const { w, admin, member } = await world();
    const published: LoosePublishedEvent[] = [];
    w.ctx.events.subscribe((event) => published.push(event));
    const refused = await doUpdateRealm(w.ctx, w.as(member), { avatar_changes_disabled: true });
    expect(refused.isErr()).toBe(true);
    expect(published).toEqual([]);
    expect(must(await doUpdateRealm(w.ctx, w.as(admin), { avatar_changes_disabled: true }))).toMatchObject({ avatar_changes_disabled: true });
    expect(published.map((p) => p.event)).toEqual([{ type: 'realm', op: 'update_dict', property: 'default', data: { avatar_changes_disabled: true } }]);
    const everyone = (await snapshot(w.ctx, w.realm)).filter((u) => u.isActive).map((u) => u.id).sort((a, b) => a - b);
    expect([...published[0]!.userIds].sort((a, b) => a - b)).toEqual(everyone);
    expectBadRequest(await doUpdateRealm.fromTransport(w.ctx, w.as(admin), { avatar_changes_disabled: 5 }), 'avatar_changes_disabled is not a boolean');
  });
});
