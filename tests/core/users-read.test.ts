/** GET /users, GET /users/{id}, GET /users/{email}, GET /users/me (API.md 2.2, 4.4; FACTS 6.5). */
import { createHash } from 'node:crypto';
import {
  createUserAsOperator,
  doDeactivateUser,
  doSendMessage,
  type EmailVisibility,
  getOwnUser,
  getUser,
  getUsers,
  type Role,
  updateRealmAsOperator,
  type User,
} from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { makeWorld, must, type World } from '../helpers/core.js';
import { expectBadRequest, expectError, fakeClock, isoAt, secondRealm, setUser, T0 } from './fixtures.js';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const gravatar = (email: string, version = 1) =>
  `https://secure.gravatar.com/avatar/${md5(email.toLowerCase())}?d=identicon&version=${version}`;

/** A world at a fixed time with one user of every role and a bot owned by the owner. */
async function populated() {
  const w = await makeWorld({ clock: fakeClock() });
  const admin = await w.addUser({ email: 'admin@example.com', fullName: 'Ada Admin', role: 200 });
  const moderator = await w.addUser({ email: 'mod@example.com', fullName: 'Mo Moderator', role: 300 });
  const member = await w.addUser({ email: 'member@example.com', fullName: 'Mel Member', role: 400 });
  const guest = await w.addUser({ email: 'guest@example.com', fullName: 'Gus Guest', role: 600 });
  const bot = await w.addUser({ email: 'helper-bot@example.com', fullName: 'Helper Bot', bot: true, botOwnerId: w.owner.id });
  return { w, admin, moderator, member, guest, bot, byRole: { 100: w.owner, 200: admin, 300: moderator, 400: member, 600: guest } };
}

const members = async (w: World, viewer: User | null, input: Record<string, unknown> = {}) =>
  must(await getUsers(w.ctx, w.as(viewer), input)).members;

describe('GET /users: the user record (API.md 2.2)', () => {
  it('has every field of a human user, and nothing else', async () => {
    const { w, member } = await populated();
    const [record] = await members(w, member, { user_ids: [w.owner.id] });
    expect(record).toEqual({
      user_id: w.owner.id,
      email: 'owner@example.com',
      delivery_email: 'owner@example.com',
      full_name: 'Olivia Owner',
      avatar_url: null,
      avatar_version: 1,
      date_joined: isoAt(T0),
      timezone: '',
      role: 100,
      is_active: true,
      is_owner: true,
      is_admin: true,
      is_guest: false,
      is_bot: false,
      bot_type: null,
      is_imported_stub: false,
    });
  });

  it('prints date_joined as ISO 8601 with microseconds and an offset', async () => {
    const { w, member } = await populated();
    const [record] = await members(w, member, { user_ids: [member.id] });
    expect(record!.date_joined).toBe('2024-01-02T03:04:05.678000+00:00');
  });

  it('derives is_owner, is_admin and is_guest from the role; moderators are not admins', async () => {
    const { w } = await populated();
    const all = await members(w, w.owner);
    const flags = all
      .filter((u) => !u.is_bot)
      .map(({ role, is_owner, is_admin, is_guest }) => ({ role, is_owner, is_admin, is_guest }));
    expect(flags).toEqual([
      { role: 100, is_owner: true, is_admin: true, is_guest: false },
      { role: 200, is_owner: false, is_admin: true, is_guest: false },
      { role: 300, is_owner: false, is_admin: false, is_guest: false },
      { role: 400, is_owner: false, is_admin: false, is_guest: false },
      { role: 600, is_owner: false, is_admin: false, is_guest: true },
    ]);
  });

  it('gives bots bot_type and bot_owner_id, and only bots', async () => {
    const { w, bot, member } = await populated();
    const all = await members(w, member);
    const botRecord = all.find((u) => u.user_id === bot.id)!;
    expect(botRecord).toMatchObject({ is_bot: true, bot_type: 1, bot_owner_id: w.owner.id, email: 'helper-bot@example.com' });
    for (const human of all.filter((u) => !u.is_bot)) {
      expect(human).not.toHaveProperty('bot_owner_id');
      expect(human.bot_type).toBeNull();
    }
  });

  it('gives a bot without an owner bot_owner_id null', async () => {
    const w = await makeWorld();
    const orphan = await w.addUser({ email: 'orphan-bot@example.com', fullName: 'Orphan Bot', bot: true });
    const [record] = await members(w, w.owner, { user_ids: [orphan.id] });
    expect(record).toHaveProperty('bot_owner_id', null);
  });

  it('adds profile_data only with include_custom_profile_fields, and never for bots', async () => {
    const { w, bot, member } = await populated();
    for (const record of await members(w, member)) expect(record).not.toHaveProperty('profile_data');
    const withFields = await members(w, member, { include_custom_profile_fields: true });
    for (const record of withFields) {
      if (record.is_bot) expect(record).not.toHaveProperty('profile_data');
      else expect(record.profile_data).toEqual({});
    }
    expect(withFields.find((u) => u.user_id === bot.id)).not.toHaveProperty('profile_data');
  });

  it('lists every user of the realm in ID order, deactivated users and bots included', async () => {
    const { w, member, bot } = await populated();
    must(await doDeactivateUser(w.ctx, w.as(w.owner), { user_id: member.id }));
    const all = await members(w, w.owner);
    expect(all.map((u) => u.user_id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(all.find((u) => u.user_id === member.id)).toMatchObject({ is_active: false });
    expect(all.find((u) => u.user_id === bot.id)).toMatchObject({ is_active: true });
  });

  it('reports is_imported_stub as stored', async () => {
    const { w, member } = await populated();
    await setUser(w.ctx, member, { isImportedStub: true });
    const [record] = await members(w, w.owner, { user_ids: [member.id] });
    expect(record!.is_imported_stub).toBe(true);
  });

  it('shows the stored timezone', async () => {
    const { w, member } = await populated();
    await setUser(w.ctx, member, { timezone: 'Europe/Berlin' });
    const [record] = await members(w, w.owner, { user_ids: [member.id] });
    expect(record!.timezone).toBe('Europe/Berlin');
  });
});

describe('GET /users: avatar_url and client_gravatar', () => {
  it('is null for external-service avatars by default (client_gravatar true)', async () => {
    const { w, member } = await populated();
    for (const record of await members(w, member)) expect(record.avatar_url).toBeNull();
  });

  it('is the external service URL with client_gravatar false', async () => {
    const { w, member } = await populated();
    const all = await members(w, member, { client_gravatar: false });
    expect(all[0]!.avatar_url).toBe(gravatar('owner@example.com'));
    expect(all.find((u) => u.user_id === member.id)!.avatar_url).toBe(gravatar('member@example.com'));
  });

  it('accepts client_gravatar as form text', async () => {
    const { w, member } = await populated();
    const all = await members(w, member, { client_gravatar: 'false' });
    expect(all[0]!.avatar_url).toBe(gravatar('owner@example.com'));
  });

  it('carries the avatar version', async () => {
    const { w, member } = await populated();
    await setUser(w.ctx, member, { avatarVersion: 7 });
    const [record] = await members(w, w.owner, { user_ids: [member.id], client_gravatar: false });
    expect(record).toMatchObject({ avatar_version: 7, avatar_url: gravatar('member@example.com', 7) });
  });

  it('is never null when the client cannot hash the email (visibility other than everyone)', async () => {
    const { w, member } = await populated();
    await setUser(w.ctx, member, { emailAddressVisibility: 3 });
    const [record] = await members(w, w.owner, { user_ids: [member.id] });
    expect(record!.avatar_url).toBe(gravatar('member@example.com'));
  });

  it('is a URL for generated (J) and uploaded (U) avatars even under client_gravatar', async () => {
    const { w, member, guest } = await populated();
    await setUser(w.ctx, member, { avatarSource: 'J' });
    await setUser(w.ctx, guest, { avatarSource: 'U', avatarVersion: 2 });
    const all = await members(w, w.owner, { user_ids: [member.id, guest.id] });
    expect(all[0]!.avatar_url).toBe(`http://chat.example.com/avatar/${member.id}?version=1`);
    expect(all[1]!.avatar_url).toMatch(
      new RegExp(`^http://chat\\.example\\.com/user_avatars/${w.realm.id}/[0-9a-f]{32}\\.png\\?version=2$`),
    );
  });
});

describe('GET /users: delivery_email and email by email_address_visibility', () => {
  // Which viewer roles see the real address under each setting (the target always sees its own).
  const seen: Record<EmailVisibility, Role[]> = {
    1: [100, 200, 300, 400, 600],
    2: [100, 200, 300, 400],
    3: [100, 200],
    4: [],
    5: [100, 200, 300],
  };

  for (const visibility of [1, 2, 3, 4, 5] as EmailVisibility[]) {
    it(`visibility ${visibility}: ${seen[visibility].join(', ') || 'nobody'} see the address`, async () => {
      const { w, byRole } = await populated();
      const target = await w.addUser({ email: 'target@example.com', fullName: 'Tara Target' });
      await setUser(w.ctx, target, { emailAddressVisibility: visibility });
      for (const role of [100, 200, 300, 400, 600] as Role[]) {
        const [record] = await members(w, byRole[role], { user_ids: [target.id] });
        const expected = seen[visibility].includes(role) ? 'target@example.com' : null;
        expect({ role, delivery_email: record!.delivery_email }).toEqual({ role, delivery_email: expected });
      }
      const [own] = await members(w, await setUser(w.ctx, target, {}), { user_ids: [target.id] });
      expect(own!.delivery_email).toBe('target@example.com');
    });
  }

  it('uses the real address as API email only under visibility everyone', async () => {
    const { w, member, guest } = await populated();
    await setUser(w.ctx, member, { emailAddressVisibility: 4 });
    const all = await members(w, w.owner, { user_ids: [member.id, guest.id] });
    expect(all[0]!.email).toBe(`user${member.id}@chat.example.com`);
    expect(all[1]!.email).toBe('guest@example.com');
  });

  it('always shows bots’ addresses', async () => {
    const { w, bot, guest } = await populated();
    await setUser(w.ctx, bot, { emailAddressVisibility: 4 });
    const [record] = await members(w, guest, { user_ids: [bot.id] });
    expect(record).toMatchObject({ email: 'helper-bot@example.com', delivery_email: 'helper-bot@example.com' });
  });
});

describe('GET /users: user_ids', () => {
  it('limits and orders the result by ID', async () => {
    const { w, guest, admin } = await populated();
    const some = await members(w, w.owner, { user_ids: JSON.stringify([guest.id, admin.id]) });
    expect(some.map((u) => u.user_id)).toEqual([admin.id, guest.id]);
  });

  it('gives an empty list for an empty filter', async () => {
    const { w } = await populated();
    expect(await members(w, w.owner, { user_ids: '[]' })).toEqual([]);
  });

  it('names the first unknown ID', async () => {
    const { w } = await populated();
    expectBadRequest(await getUsers(w.ctx, w.as(w.owner), { user_ids: [1,500,600] }), 'Invalid user ID: 500');
  });

  it('treats another realm’s users as unknown', async () => {
    const { w } = await populated();
    const other = await secondRealm(w.ctx);
    expectBadRequest(await getUsers(w.ctx, w.as(w.owner), { user_ids: [other.owner.id] }), `Invalid user ID: ${other.owner.id}`);
  });

  it('rejects malformed lists', async () => {
    const { w } = await populated();
    expectBadRequest(await getUsers.fromTransport(w.ctx, w.as(w.owner), { user_ids: '[1,' }), 'user_ids is not valid JSON');
    expectBadRequest(await getUsers.fromTransport(w.ctx, w.as(w.owner), { user_ids: 5 }), 'user_ids is not a list');
    expectBadRequest(await getUsers.fromTransport(w.ctx, w.as(w.owner), { user_ids: [1,"2"] }), 'user_ids[1] is not an integer');
    expectBadRequest(await getUsers(w.ctx, w.as(w.owner), { user_ids: [1.5] }), 'user_ids[0] is not an integer');
  });

  it('rejects malformed booleans', async () => {
    const { w } = await populated();
    expectBadRequest(await getUsers.fromTransport(w.ctx, w.as(w.owner), { client_gravatar: 'True' }), 'client_gravatar is not valid JSON');
    expectBadRequest(await getUsers.fromTransport(w.ctx, w.as(w.owner), { client_gravatar: 1 }), 'client_gravatar is not a boolean');
    expectBadRequest(
      await getUsers.fromTransport(w.ctx, w.as(w.owner), { include_custom_profile_fields: '"true"' }),
      'include_custom_profile_fields is not a boolean',
    );
  });
});

describe('GET /users: spectators (FL 387)', () => {
  it('is UNAUTHORIZED without the public access option', async () => {
    const { w } = await populated();
    expectError(await getUsers(w.ctx, w.as(null), {}), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
  });

  it('lists users when the realm has public access, without private details', async () => {
    const { w, member } = await populated();
    await setUser(w.ctx, member, { timezone: 'Asia/Tokyo' });
    const realm = must(await updateRealmAsOperator(w.ctx, w.realm, { webPublicAccessEnabled: true }));
    const all = must(await getUsers(w.ctx, { realm, user: null }, {})).members;
    expect(all).toHaveLength(6);
    const record = all.find((u) => u.user_id === member.id)!;
    // Documented choice, from the reference: spectators get no time zone and only the day joined.
    expect(record).not.toHaveProperty('timezone');
    expect(record.date_joined).toBe('2024-01-02');
    for (const user of all) expect(user.delivery_email).toBeNull();
    // Spectators get avatar URLs: the server does not rely on them hashing emails.
    expect(record.avatar_url).toBe(gravatar('member@example.com'));
    expect(record.email).toBe('member@example.com');
  });

  it('honours user_ids for spectators too', async () => {
    const { w } = await populated();
    const realm = must(await updateRealmAsOperator(w.ctx, w.realm, { webPublicAccessEnabled: true }));
    const some = must(await getUsers(w.ctx, { realm, user: null }, { user_ids: [2] })).members;
    expect(some).toHaveLength(1);
    expectBadRequest(await getUsers(w.ctx, { realm, user: null }, { user_ids: [99] }), 'Invalid user ID: 99');
  });

  it('does not leak another realm’s users to its spectators', async () => {
    const { w } = await populated();
    const other = await secondRealm(w.ctx);
    const realm = must(await updateRealmAsOperator(w.ctx, other.realm, { webPublicAccessEnabled: true }));
    const all = must(await getUsers(w.ctx, { realm, user: null }, {})).members;
    expect(all.map((u) => u.user_id)).toEqual([other.owner.id]);
  });
});

describe('GET /users/{user_id} and GET /users/{email}', () => {
  it('returns one user wrapped as `user`, with the same record as the list', async () => {
    const { w, member, admin } = await populated();
    const one = must(await getUser(w.ctx, w.as(member), { user_id: String(admin.id) }));
    const [listed] = await members(w, member, { user_ids: [admin.id] });
    expect(one).toEqual({ user: listed });
  });

  it('finds bots and deactivated users', async () => {
    const { w, member, bot, guest } = await populated();
    must(await doDeactivateUser(w.ctx, w.as(w.owner), { user_id: guest.id }));
    expect(must(await getUser(w.ctx, w.as(member), { user_id: String(bot.id) })).user).toMatchObject({ is_bot: true });
    expect(must(await getUser(w.ctx, w.as(member), { user_id: String(guest.id) })).user).toMatchObject({ is_active: false });
  });

  it('honours client_gravatar and include_custom_profile_fields', async () => {
    const { w, member } = await populated();
    const plain = must(await getUser(w.ctx, w.as(member), { user_id: '1' })).user;
    expect(plain.avatar_url).toBeNull();
    expect(plain).not.toHaveProperty('profile_data');
    const full = must(
      await getUser(w.ctx, w.as(member), { user_id: '1', client_gravatar: false, include_custom_profile_fields: true }),
    ).user;
    expect(full.avatar_url).toBe(gravatar('owner@example.com'));
    expect(full.profile_data).toEqual({});
  });

  it('says "No such user" for unknown IDs and for another realm’s users', async () => {
    const { w, member } = await populated();
    const other = await secondRealm(w.ctx);
    expectBadRequest(await getUser(w.ctx, w.as(member), { user_id: '999' }), 'No such user');
    expectBadRequest(await getUser(w.ctx, w.as(member), { user_id: String(other.owner.id) }), 'No such user');
    expectBadRequest(await getUser(w.ctx, w.as(member), { user_id: 'boss@other.example.net' }), 'No such user');
  });

  it('looks users up by email, case-insensitively', async () => {
    const { w, member, admin } = await populated();
    const found = must(await getUser(w.ctx, w.as(member), { user_id: 'ADMIN@example.com' }));
    expect(found.user).toMatchObject({ user_id: admin.id, email: 'admin@example.com' });
  });

  it('finds a hidden address only for viewers who may see it, and the dummy API email for everyone', async () => {
    const { w, member, admin, guest } = await populated();
    await setUser(w.ctx, guest, { emailAddressVisibility: 3 });
    const dummy = `user${guest.id}@chat.example.com`;
    expectBadRequest(await getUser(w.ctx, w.as(member), { user_id: 'guest@example.com' }), 'No such user');
    expect(must(await getUser(w.ctx, w.as(member), { user_id: dummy })).user).toMatchObject({
      user_id: guest.id,
      email: dummy,
      delivery_email: null,
    });
    expect(must(await getUser(w.ctx, w.as(admin), { user_id: 'guest@example.com' })).user).toMatchObject({
      user_id: guest.id,
      delivery_email: 'guest@example.com',
    });
    expect(must(await getUser(w.ctx, w.as(admin), { user_id: dummy.toUpperCase() })).user).toMatchObject({ user_id: guest.id });
  });

  it('does not accept a dummy address for a user whose API email is the real one', async () => {
    const { w, member } = await populated();
    expectBadRequest(await getUser(w.ctx, w.as(member), { user_id: `user${member.id}@chat.example.com` }), 'No such user');
  });

  it('needs a logged-in user', async () => {
    const { w } = await populated();
    const realm = must(await updateRealmAsOperator(w.ctx, w.realm, { webPublicAccessEnabled: true }));
    expectError(await getUser(w.ctx, { realm, user: null }, { user_id: '1' }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
  });

  it('needs the path parameter', async () => {
    const { w } = await populated();
    expectError(await getUser.fromTransport(w.ctx, w.as(w.owner), {}), 'REQUEST_VARIABLE_MISSING', "Missing 'user_id' argument", 400, { var_name: 'user_id' });
  });
});

describe('GET /users/me', () => {
  it('is the caller’s own record, flat, with profile_data, real avatar URL and max_message_id -1', async () => {
    const { w, member } = await populated();
    await setUser(w.ctx, member, { emailAddressVisibility: 4 });
    const me = must(await getOwnUser(w.ctx, w.as(await setUser(w.ctx, member, {})), {}));
    expect(me).toEqual({
      user_id: member.id,
      email: `user${member.id}@chat.example.com`,
      delivery_email: 'member@example.com',
      full_name: 'Mel Member',
      avatar_url: gravatar('member@example.com'),
      avatar_version: 1,
      date_joined: isoAt(T0),
      timezone: '',
      role: 400,
      is_active: true,
      is_owner: false,
      is_admin: false,
      is_guest: false,
      is_bot: false,
      bot_type: null,
      is_imported_stub: false,
      profile_data: {},
      max_message_id: -1,
    });
  });

  it('gives as max_message_id the newest message the caller has a copy of, not one they cannot see', async () => {
    const { w, member } = await populated();
    const toMember = must(await doSendMessage(w.ctx, w.as(w.owner), { type: 'direct', to: JSON.stringify([member.id]), content: 'hello' })).id;
    expect(must(await getOwnUser(w.ctx, w.as(member), {})).max_message_id).toBe(toMember);
    // A later direct message between others is not the member's.
    const others = must(await doSendMessage(w.ctx, w.as(w.owner), { type: 'direct', to: JSON.stringify([w.owner.id]), content: 'note to self' })).id;
    expect(others).toBeGreaterThan(toMember);
    expect(must(await getOwnUser(w.ctx, w.as(member), {})).max_message_id).toBe(toMember);
    expect(must(await getOwnUser(w.ctx, w.as(w.owner), {})).max_message_id).toBe(others);
  });

  it('works for bots, with bot fields and no profile_data', async () => {
    const { w, bot } = await populated();
    const me = must(await getOwnUser(w.ctx, w.as(bot), {}));
    expect(me).toMatchObject({ user_id: bot.id, is_bot: true, bot_type: 1, bot_owner_id: w.owner.id, max_message_id: -1 });
    expect(me).not.toHaveProperty('profile_data');
  });

  it('needs a logged-in user', async () => {
    const { w } = await populated();
    expectError(await getOwnUser(w.ctx, w.as(null), {}), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
  });

  it('is the same user in a second realm with the same address', async () => {
    const w = await makeWorld();
    const other = await secondRealm(w.ctx);
    const twin = must(await createUserAsOperator(w.ctx, other.realm, { email: 'owner@example.com', fullName: 'Twin Owner' }));
    const me = must(await getOwnUser(w.ctx, { realm: other.realm, user: twin }, {}));
    expect(me).toMatchObject({ user_id: twin.id, full_name: 'Twin Owner', role: 400 });
  });
});
