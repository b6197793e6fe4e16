/**
 * The events of every operation of the users area, checked the way the reference's
 * `verify_action` does: register before the action, apply the events the queue received to that
 * snapshot, and compare with a fresh register. Also who receives each event, and that failed or
 * rolled-back actions send nothing.
 */
import {
  changeUserAsOperator,
  createUserAsOperator,
  doCreateUser,
  doDeactivateUser,
  doFetchApiKey,
  doReactivateUser,
  doRegenerateApiKey,
  doRegister,
  doUpdateSettings,
  doUpdateUser,
  getEvents,
  publishOnCommit,
  type User,
  systemGroupId,
} from '@teamchat/core/internal';
import type { LooseQueuedEvent as QueuedEvent } from '../helpers/events.js';
import { describe, expect, it } from 'vitest';
import { applyUserChange } from '../../packages/core/src/users/changes.js';
import { makeWorld, must, type World } from '../helpers/core.js';
import { applyEvents, LEGACY_EVENT_TYPES, normalized, type State } from './apply-events.js';
import { expectBadRequest, expectError, fakeClock, isoAt, reload, secondRealm, setUser, snapshot, T0 } from './fixtures.js';

// user_group too: creation, role changes and reactivation change the system groups' members.
const SECTIONS = '["realm_user", "realm_bot", "user_group"]';

/** An Ok result for storage transactions (neverthrow is a dependency of core, not of the tests). */
const COMMIT = { isOk: () => true, isErr: () => false, value: undefined } as never;

/** Owner, administrator, moderator, two members (one owns two bots), a guest, and an admin's bot. */
async function world() {
  const clock = fakeClock();
  const w = await makeWorld({ clock, config: { timers: false } });
  const admin = await w.addUser({ email: 'ada@example.com', fullName: 'Ada Admin', role: 200, password: 'ada-password' });
  const moderator = await w.addUser({ email: 'mod@example.com', fullName: 'Mo Moderator', role: 300 });
  const member = await w.addUser({ email: 'mel@example.com', fullName: 'Mel Member', password: 'mel-password' });
  const botOwner = await w.addUser({ email: 'bob@example.com', fullName: 'Bob Builder' });
  const guest = await w.addUser({ email: 'gus@example.com', fullName: 'Gus Guest', role: 600 });
  const botA = await w.addUser({ email: 'a-bot@example.com', fullName: 'Bot A', bot: true, botOwnerId: botOwner.id });
  const botB = await w.addUser({ email: 'b-bot@example.com', fullName: 'Bot B', bot: true, botOwnerId: botOwner.id });
  const adminBot = await w.addUser({ email: 'admin-bot@example.com', fullName: 'Admin Bot', bot: true, botOwnerId: admin.id });
  const humans = [w.owner, admin, moderator, member, botOwner, guest];
  return { w, clock, admin, moderator, member, botOwner, guest, botA, botB, adminBot, humans };
}

interface Observer {
  user: User;
  clientGravatar: boolean;
  queueId: string;
  state: State;
}

async function registerSections(w: World, user: User, clientGravatar: boolean): Promise<State> {
  return must(await doRegister.fromTransport(w.ctx, w.as(user), { fetch_event_types: SECTIONS, client_gravatar: clientGravatar }));
}

/** Two queues per user (client_gravatar on and off), each with its snapshot. */
async function observe(w: World, users: User[]): Promise<Observer[]> {
  const observers: Observer[] = [];
  for (const user of users) {
    for (const clientGravatar of [true, false]) {
      const state = await registerSections(w, user, clientGravatar);
      observers.push({ user, clientGravatar, queueId: state.queue_id, state });
    }
  }
  return observers;
}

async function eventsOf(w: World, observer: Pick<Observer, 'user' | 'queueId'>): Promise<QueuedEvent[]> {
  const polled = must(await getEvents(w.ctx, w.as(observer.user), { queue_id: observer.queueId, dont_block: true }));
  return (polled).events;
}

/**
 * Applies each observer's events to its snapshot and asserts a fresh register gives the same.
 * Returns the events each observed user received (from its client_gravatar=false queue).
 */
async function verifyObservers(w: World, observers: Observer[]): Promise<Map<number, QueuedEvent[]>> {
  const stored = await snapshot(w.ctx, w.realm);
  const received = new Map<number, QueuedEvent[]>();
  for (const observer of observers) {
    const events = await eventsOf(w, observer);
    const user = stored.find((u) => u.id === observer.user.id)!;
    const realm = (await w.ctx.storage.read((tx) => tx.realms.byId(w.realm.id)))!;
    const applied = await applyEvents(observer.state, events, {
      clientGravatar: observer.clientGravatar,
      emailPublic: (id) => stored.find((u) => u.id === id)?.emailAddressVisibility === 1,
      webPublicAccess: realm.webPublicAccessEnabled,
      refetchBots: async () => (await registerSections(w, user, observer.clientGravatar)).realm_bots,
    });
    const fresh = await registerSections(w, user, observer.clientGravatar);
    expect(normalized(applied), `user ${user.id}, client_gravatar ${observer.clientGravatar}`).toEqual(normalized(fresh));
    if (!observer.clientGravatar) received.set(user.id, events);
  }
  return received;
}

/** Registers observers, runs the action, verifies every observer and returns what each received. */
async function verifyAction(w: World, users: User[], action: () => Promise<unknown>): Promise<Map<number, QueuedEvent[]>> {
  const observers = await observe(w, users);
  await action();
  return verifyObservers(w, observers);
}

/** The user IDs among `received` that got an event matching `pattern`. */
function receivers(received: Map<number, QueuedEvent[]>, pattern: Record<string, unknown>): number[] {
  const ids: number[] = [];
  for (const [id, events] of received) {
    if (events.some((event) => matches(event, pattern))) ids.push(id);
  }
  return ids.sort((a, b) => a - b);
}

function matches(event: Record<string, unknown>, pattern: Record<string, unknown>): boolean {
  return Object.entries(pattern).every(([key, value]) =>
    value !== null && typeof value === 'object'
      ? typeof event[key] === 'object' && event[key] !== null && matches(event[key] as Record<string, unknown>, value as Record<string, unknown>)
      : event[key] === value,
  );
}

const ids = (...users: User[]) => users.map((u) => u.id).sort((a, b) => a - b);
const strip = (events: QueuedEvent[] | undefined) => (events ?? []).map(({ id: _id, ...event }) => event);

describe('verify_action: creating users', () => {
  it('doCreateUser: realm_user add, with the full record, to every active user', async () => {
    const { w, humans, botA } = await world();
    let created = 0;
    const received = await verifyAction(w, humans, async () => {
      created = must(await doCreateUser(w.ctx, w.as(w.owner), { email: 'new@example.com', password: 'new-password', full_name: 'New Person' })).user_id;
    });
    expect(receivers(received, { type: 'realm_user', op: 'add', person: { user_id: created } })).toEqual(ids(...humans));
    expect(strip(received.get(w.owner.id))).toEqual([
      {
        type: 'realm_user',
        op: 'add',
        person: {
          user_id: created,
          email: 'new@example.com',
          delivery_email: 'new@example.com',
          full_name: 'New Person',
          avatar_url: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\/avatar\//),
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
        },
      },
      // The new member joins the system groups of its role (do_create_user).
      { type: 'user_group', op: 'add_members', group_id: systemGroupId('role:members'), user_ids: [created] },
      { type: 'user_group', op: 'add_members', group_id: systemGroupId('role:fullmembers'), user_ids: [created] },
    ]);
    // Bots are users too: their queues get the event like anyone's.
    const botQueue = (await observe(w, [botA]))[0]!;
    must(await createUserAsOperator(w.ctx, w.realm, { email: 'later@example.com', fullName: 'Later' }));
    expect((await eventsOf(w, botQueue)).map((e) => e.op)).toEqual(['add', 'add_members', 'add_members']);
  });

  it('createUserAsOperator: a member', async () => {
    const { w, humans } = await world();
    const received = await verifyAction(w, humans, () => w.addUser({ email: 'op@example.com', fullName: 'Op Made' }));
    for (const events of received.values()) expect(events.map((e) => `${e.type}/${e.op}`)).toEqual(['realm_user/add', 'user_group/add_members', 'user_group/add_members']);
  });

  it('createUserAsOperator: a bot adds realm_bot for administrators and its owner only', async () => {
    const { w, humans, admin, member, moderator, guest, botOwner } = await world();
    let bot: User | undefined;
    const received = await verifyAction(w, humans, async () => {
      bot = await w.addUser({ email: 'new-bot@example.com', fullName: 'New Bot', bot: true, botOwnerId: member.id });
    });
    expect(receivers(received, { type: 'realm_user', op: 'add' })).toEqual(ids(...humans));
    expect(receivers(received, { type: 'realm_bot', op: 'add' })).toEqual(ids(w.owner, admin, member));
    // realm_user add and the two system-group add_members each.
    expect(received.get(moderator.id)!.length + received.get(guest.id)!.length + received.get(botOwner.id)!.length).toBe(9);
    expect(strip(received.get(member.id))).toEqual([
      {
        type: 'realm_user',
        op: 'add',
        person: expect.objectContaining({ user_id: bot!.id, is_bot: true, bot_type: 1, bot_owner_id: member.id }),
      },
      {
        type: 'realm_bot',
        op: 'add',
        bot: { user_id: bot!.id, default_sending_stream: null, default_events_register_stream: null, default_all_public_streams: false, services: [] },
      },
      { type: 'user_group', op: 'add_members', group_id: systemGroupId('role:members'), user_ids: [bot!.id] },
      { type: 'user_group', op: 'add_members', group_id: systemGroupId('role:fullmembers'), user_ids: [bot!.id] },
    ]);
    // Bots carry no profile_data (SHAPES 5.8).
    expect(received.get(member.id)![0]!.person).not.toHaveProperty('profile_data');
  });

  it('a user of another realm hears nothing', async () => {
    const { w } = await world();
    const other = await secondRealm(w.ctx);
    const state = must(await doRegister(w.ctx, { realm: other.realm, user: other.owner }, {}));
    await w.addUser({ email: 'x@example.com', fullName: 'Ex' });
    const polled = must(await getEvents.fromTransport(w.ctx, { realm: other.realm, user: other.owner }, { queue_id: state.queue_id, dont_block: true }));
    expect(polled).toEqual({ queue_id: state.queue_id, events: [] });
  });
});

describe('verify_action: PATCH /users/{id}', () => {
  it('full_name', async () => {
    const { w, humans, member } = await world();
    const received = await verifyAction(w, humans, async () =>
      must(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: member.id, full_name: 'Melanie' })),
    );
    expect(receivers(received, { person: { user_id: member.id, full_name: 'Melanie' } })).toEqual(ids(...humans));
    expect(strip(received.get(member.id))).toEqual([{ type: 'realm_user', op: 'update', person: { user_id: member.id, full_name: 'Melanie' } }]);
  });

  it('role: a member becomes moderator', async () => {
    const { w, humans, member } = await world();
    const received = await verifyAction(w, humans, async () =>
      must(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: member.id, role: 300 })),
    );
    // Then the system groups, as do_change_user_role: the old role's group, the new one's, role:fullmembers.
    expect(strip(received.get(w.owner.id))).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: member.id, role: 300 } },
      { type: 'user_group', op: 'remove_members', group_id: systemGroupId('role:members'), user_ids: [member.id] },
      { type: 'user_group', op: 'add_members', group_id: systemGroupId('role:moderators'), user_ids: [member.id] },
      { type: 'user_group', op: 'remove_members', group_id: systemGroupId('role:fullmembers'), user_ids: [member.id] },
    ]);
  });

  it('role: a member becomes administrator (and then sees every bot)', async () => {
    const { w, humans, member } = await world();
    await verifyAction(w, humans, async () => must(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: member.id, role: 200 })));
    const state = await registerSections(w, await reload(w.ctx, member), false);
    expect(state.realm_bots).toHaveLength(3);
  });

  it('role: an administrator becomes a member, and a member a guest', async () => {
    const { w, humans, admin, botOwner } = await world();
    await verifyAction(w, humans, async () => {
      must(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: admin.id, role: 400 }));
      must(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: botOwner.id, role: 600 }));
    });
  });

  it('role and full_name together: one person form per change', async () => {
    const { w, humans, moderator } = await world();
    const received = await verifyAction(w, humans, async () =>
      must(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: moderator.id, role: 400, full_name: 'Mo' })),
    );
    expect(strip(received.get(moderator.id)).filter((e) => e.type === 'realm_user').map((e) => e.person)).toEqual([
      { user_id: moderator.id, full_name: 'Mo' },
      { user_id: moderator.id, role: 400 },
    ]);
  });

  it('new_email of a user whose email everyone may see: delivery_email, avatar and new_email', async () => {
    const { w, humans, member } = await world();
    await changeUserAsOperator(w.ctx, w.realm, 'owner@example.com', { canChangeUserEmails: true });
    const received = await verifyAction(w, humans, async () =>
      must(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: member.id, new_email: 'mel.new@example.com' })),
    );
    const moved = await reload(w.ctx, member);
    expect(strip(received.get(w.owner.id))).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: member.id, delivery_email: 'mel.new@example.com' } },
      {
        type: 'realm_user',
        op: 'update',
        person: {
          user_id: member.id,
          avatar_source: 'G',
          avatar_url: expect.stringContaining('https://secure.gravatar.com/avatar/'),
          avatar_url_medium: expect.stringContaining('&s=500'),
          avatar_version: moved.avatarVersion,
        },
      },
      { type: 'realm_user', op: 'update', person: { user_id: member.id, new_email: 'mel.new@example.com' } },
    ]);
    for (const user of humans) expect(received.get(user.id)).toHaveLength(3);
  });

  it('new_email of a user whose email only administrators may see: delivery_email to them (and to the user) only', async () => {
    const { w, humans, admin, moderator, member, guest, botOwner } = await world();
    await changeUserAsOperator(w.ctx, w.realm, 'owner@example.com', { canChangeUserEmails: true });
    await setUser(w.ctx, member, { emailAddressVisibility: 3 });
    const received = await verifyAction(w, humans, async () =>
      must(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: member.id, new_email: 'mel.new@example.com' })),
    );
    expect(receivers(received, { person: { user_id: member.id, delivery_email: 'mel.new@example.com' } })).toEqual(ids(w.owner, admin, member));
    expect(receivers(received, { person: { delivery_email: null } })).toEqual([]);
    // The API email is the dummy address, which did not change; the gravatar did.
    expect(receivers(received, { person: { new_email: expect.anything() } })).toEqual([]);
    expect(receivers(received, { person: { user_id: member.id, avatar_source: 'G' } })).toEqual(ids(...humans));
    expect(received.get(moderator.id)).toHaveLength(1);
    expect(received.get(guest.id)).toHaveLength(1);
    expect(received.get(botOwner.id)).toHaveLength(1);
  });

  it('the owner changes their own email: their own keys follow', async () => {
    const { w, humans } = await world();
    await changeUserAsOperator(w.ctx, w.realm, 'owner@example.com', { canChangeUserEmails: true });
    const owner = await reload(w.ctx, w.owner);
    await verifyAction(w, humans, async () =>
      must(await doUpdateUser(w.ctx, w.as(owner), { user_id: owner.id, new_email: 'olivia@example.com' })),
    );
  });

  it('new_email of a bot', async () => {
    const { w, humans, botA } = await world();
    await changeUserAsOperator(w.ctx, w.realm, 'owner@example.com', { canChangeUserEmails: true });
    const received = await verifyAction(w, humans, async () =>
      must(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: botA.id, new_email: 'a-bot.new@example.com' })),
    );
    // No realm_bot update: the FL 474 bot record has no email.
    expect(receivers(received, { type: 'realm_bot' })).toEqual([]);
    expect(receivers(received, { person: { user_id: botA.id, new_email: 'a-bot.new@example.com' } })).toEqual(ids(...humans));
  });

  it('nothing changed: no events', async () => {
    const { w, humans, member } = await world();
    const received = await verifyAction(w, humans, async () =>
      must(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: member.id, full_name: 'Mel Member', role: 400 })),
    );
    for (const events of received.values()) expect(events).toEqual([]);
  });
});

describe('verify_action: deactivation and reactivation', () => {
  it('a user with bots: the bots first (is_active and realm_bot delete), then the user', async () => {
    const { w, humans, admin, moderator, member, guest, botOwner, botA, botB } = await world();
    const others = humans.filter((u) => u.id !== botOwner.id);
    const own = (await observe(w, [botOwner]))[1]!;
    const received = await verifyAction(w, others, async () =>
      must(await doDeactivateUser(w.ctx, w.as(admin), { user_id: botOwner.id })),
    );
    expect(strip(received.get(admin.id))).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: botA.id, is_active: false } },
      { type: 'realm_bot', op: 'delete', bot: { user_id: botA.id } },
      { type: 'realm_user', op: 'update', person: { user_id: botB.id, is_active: false } },
      { type: 'realm_bot', op: 'delete', bot: { user_id: botB.id } },
      { type: 'realm_user', op: 'update', person: { user_id: botOwner.id, is_active: false } },
    ]);
    expect(receivers(received, { type: 'realm_bot' })).toEqual(ids(w.owner, admin));
    for (const user of [moderator, member, guest]) expect(received.get(user.id)).toHaveLength(3);
    // The deactivated owner's queues are dropped: its clients must re-register, and cannot.
    const dropped = await getEvents(w.ctx, w.as(own.user), { queue_id: own.queueId, dont_block: true });
    expect(dropped._unsafeUnwrapErr()).toMatchObject({ code: 'BAD_EVENT_QUEUE_ID' });
  });

  it('actions.delete_profile: the profile changes come before each deactivation', async () => {
    const { w, humans, admin, botOwner, botA } = await world();
    await setUser(w.ctx, botOwner, { timezone: 'Europe/Paris', avatarSource: 'U' });
    const others = humans.filter((u) => u.id !== botOwner.id);
    const received = await verifyAction(w, others, async () =>
      must(await doDeactivateUser.fromTransport(w.ctx, w.as(admin), { user_id: botOwner.id, actions: '{"delete_profile": true}' })),
    );
    const forOwner = strip(received.get(w.owner.id)).map((e) => `${e.type}/${Object.keys(e.person ?? e.bot as object).join(',')}`);
    expect(forOwner).toEqual([
      'realm_user/user_id,full_name',
      'realm_user/user_id,avatar_source,avatar_url,avatar_url_medium,avatar_version',
      'realm_user/user_id,is_active',
      'realm_bot/user_id',
      'realm_user/user_id,full_name',
      'realm_user/user_id,avatar_source,avatar_url,avatar_url_medium,avatar_version',
      'realm_user/user_id,is_active',
      'realm_bot/user_id',
      'realm_user/user_id,full_name',
      'realm_user/user_id,avatar_source,avatar_url,avatar_url_medium,avatar_version',
      'realm_user/user_id,email,timezone',
      'realm_user/user_id,is_active',
    ]);
    expect(received.get(w.owner.id)![0]!.person).toEqual({ user_id: botA.id, full_name: `Deleted User ${botA.id}` });
  });

  it('a bot alone (as DELETE /bots will do; DELETE /users refuses bots): realm_bot delete to administrators and its owner', async () => {
    const { w, humans, admin, botOwner, botA } = await world();
    expectBadRequest(await doDeactivateUser(w.ctx, w.as(admin), { user_id: botA.id }), 'No such user');
    const received = await verifyAction(w, humans, () =>
      w.ctx.storage.transaction(async (tx) => {
        await applyUserChange(w.ctx, tx, w.realm, botA, { isActive: false });
        return COMMIT;
      }),
    );
    expect(receivers(received, { type: 'realm_bot', op: 'delete', bot: { user_id: botA.id } })).toEqual(ids(w.owner, admin, botOwner));
    expect(receivers(received, { person: { user_id: botA.id, is_active: false } })).toEqual(ids(...humans));
  });

  it('doReactivateUser: a user', async () => {
    const { w, humans, admin, member } = await world();
    must(await doDeactivateUser(w.ctx, w.as(admin), { user_id: member.id }));
    const others = humans.filter((u) => u.id !== member.id);
    const received = await verifyAction(w, others, async () => must(await doReactivateUser(w.ctx, w.as(admin), { user_id: member.id })));
    expect(receivers(received, { person: { user_id: member.id, is_active: true } })).toEqual(ids(...others));
    expect(receivers(received, { type: 'realm_bot' })).toEqual([]);
  });

  it('doReactivateUser: a bot comes back for administrators and its owner', async () => {
    const { w, humans, admin, botOwner, botB } = await world();
    // The owner's deactivation takes its bots along; the owner alone comes back.
    must(await doDeactivateUser(w.ctx, w.as(admin), { user_id: botOwner.id }));
    must(await doReactivateUser(w.ctx, w.as(admin), { user_id: botOwner.id }));
    const received = await verifyAction(w, humans, async () => must(await doReactivateUser(w.ctx, w.as(admin), { user_id: botB.id })));
    expect(receivers(received, { type: 'realm_bot', op: 'add', bot: { user_id: botB.id } })).toEqual(ids(w.owner, admin, botOwner));
    expect(receivers(received, { person: { user_id: botB.id, is_active: true } })).toEqual(ids(...humans));
  });

  it('reactivating a bot whose owner is deactivated tells only the administrators', async () => {
    const { w, humans, admin, botOwner, botA } = await world();
    must(await doDeactivateUser(w.ctx, w.as(admin), { user_id: botOwner.id }));
    const others = humans.filter((u) => u.id !== botOwner.id);
    const received = await verifyAction(w, others, async () => must(await doReactivateUser(w.ctx, w.as(admin), { user_id: botA.id })));
    expect(receivers(received, { type: 'realm_bot', op: 'add' })).toEqual(ids(w.owner, admin));
  });
});

describe('verify_action: logins, the operator, API keys', () => {
  it('doFetchApiKey: the first login of an API-created user moves date_joined (FL 475)', async () => {
    const { w, clock, humans } = await world();
    const userId = must(await doCreateUser(w.ctx, w.as(w.owner), { email: 'api@example.com', password: 'api-password', full_name: 'Api Made' })).user_id;
    clock.advance(86_400_000);
    const received = await verifyAction(w, humans, async () =>
      must(await doFetchApiKey(w.ctx, w.as(null), { username: 'api@example.com', password: 'api-password' })),
    );
    expect(strip(received.get(w.owner.id))).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: userId, date_joined: isoAt(T0 + 86_400_000) } },
    ]);
    expect(receivers(received, { person: { date_joined: isoAt(T0 + 86_400_000) } })).toEqual(ids(...humans));
    // Later logins change nothing.
    const again = await verifyAction(w, humans, async () =>
      must(await doFetchApiKey(w.ctx, w.as(null), { username: 'api@example.com', password: 'api-password' })),
    );
    for (const events of again.values()) expect(events).toEqual([]);
  });

  it('doFetchApiKey: an imported stub’s first login clears is_imported_stub too (FL 433)', async () => {
    const { w, clock, humans, member } = await world();
    await setUser(w.ctx, member, { isImportedStub: true });
    clock.advance(1_000);
    const received = await verifyAction(w, humans, async () =>
      must(await doFetchApiKey(w.ctx, w.as(null), { username: 'mel@example.com', password: 'mel-password' })),
    );
    expect(strip(received.get(w.owner.id)).map((e) => Object.keys(e.person as object))).toEqual([
      ['user_id', 'is_imported_stub'],
      ['user_id', 'date_joined'],
    ]);
  });

  it('changeUserAsOperator: a role change sends the role form; special permissions send nothing', async () => {
    const { w, humans, moderator } = await world();
    const received = await verifyAction(w, humans, async () => {
      must(await changeUserAsOperator(w.ctx, w.realm, 'mod@example.com', { role: 200 }));
      must(await changeUserAsOperator(w.ctx, w.realm, 'mod@example.com', { canCreateUsers: true, canChangeUserEmails: true }));
      must(await changeUserAsOperator(w.ctx, w.realm, 'mod@example.com', { password: 'a-new-password' }));
    });
    expect(strip(received.get(w.owner.id))).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: moderator.id, role: 200 } },
      { type: 'user_group', op: 'remove_members', group_id: systemGroupId('role:moderators'), user_ids: [moderator.id] },
      { type: 'user_group', op: 'add_members', group_id: systemGroupId('role:administrators'), user_ids: [moderator.id] },
    ]);
  });

  it('doRegenerateApiKey sends nothing', async () => {
    const { w, humans, member } = await world();
    const received = await verifyAction(w, humans, async () => must(await doRegenerateApiKey(w.ctx, w.as(member), {})));
    for (const events of received.values()) expect(events).toEqual([]);
  });

  it('PATCH /settings email_address_visibility keeps every snapshot exact', async () => {
    const { w, humans, member } = await world();
    const hidden = await verifyAction(w, humans, async () =>
      must(await doUpdateSettings(w.ctx, w.as(member), { email_address_visibility: 3 })),
    );
    // Members lose the address; the API email becomes the dummy one; the avatar URL is now real.
    expect(receivers(hidden, { person: { user_id: member.id, delivery_email: null } })).toEqual(
      ids(...humans.filter((u) => u.role > 200 && u.id !== member.id)),
    );
    expect(receivers(hidden, { person: { user_id: member.id, new_email: `user${member.id}@chat.example.com` } })).toEqual(ids(...humans));
    expect(receivers(hidden, { person: { user_id: member.id, avatar_source: 'G' } })).toEqual(ids(...humans));
    await verifyAction(w, humans, async () => must(await doUpdateSettings(w.ctx, w.as(member), { email_address_visibility: 1 })));
    // Between two restricted levels the avatar and the API email stay; only access changes.
    await verifyAction(w, humans, async () => must(await doUpdateSettings(w.ctx, w.as(member), { email_address_visibility: 2 })));
    const narrowed = await verifyAction(w, humans, async () =>
      must(await doUpdateSettings(w.ctx, w.as(member), { email_address_visibility: 4 })),
    );
    expect(receivers(narrowed, { person: { avatar_source: 'G' } })).toEqual([]);
    expect(receivers(narrowed, { person: { new_email: expect.anything() } })).toEqual([]);
  });
});

describe('nothing is delivered for a failed action', () => {
  async function expectSilence(w: World, users: User[], action: () => Promise<unknown>) {
    const observers = await observe(w, users);
    await action();
    for (const observer of observers) expect(await eventsOf(w, observer)).toEqual([]);
  }

  it('validation and permission failures', async () => {
    const { w, humans, admin, member } = await world();
    await expectSilence(w, humans, async () => {
      expectBadRequest(await doUpdateUser(w.ctx, w.as(member), { user_id: admin.id, full_name: 'Nope' }), 'Insufficient permission');
      expectError(await doUpdateUser(w.ctx, w.as(admin), { user_id: w.owner.id, role: 400 }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
      expectBadRequest(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: member.id, full_name: 'Ok Name', profile_data: [{"id":9,"value":"x"}] }), 'Field id 9 not found.');
      expectBadRequest(await doDeactivateUser(w.ctx, w.as(w.owner), { user_id: w.owner.id }), 'Cannot deactivate the only organization owner');
      expectBadRequest(await doReactivateUser(w.ctx, w.as(admin), { user_id: member.id }), 'User is already active.');
      expectBadRequest(await createUserAsOperator(w.ctx, w.realm, { email: 'mel@example.com', fullName: 'Dup' }), "Email 'mel@example.com' already in use");
      expectBadRequest(await doCreateUser(w.ctx, w.as(w.owner), { email: 'bad', password: 'new-password', full_name: 'X Y' }), 'Bad name or username');
    });
  });

  it('a transaction that fails after its writes publishes nothing: Err or exception', async () => {
    const { w, humans, member } = await world();
    await expectSilence(w, humans, async () => {
      const failed = await w.ctx.storage.transaction(async (tx) => {
        await applyUserChange(w.ctx, tx, w.realm, member, { fullName: 'Rolled Back', role: 300 });
        return { isOk: () => false, isErr: () => true, error: 'after the writes' } as never;
      });
      expect((failed).isErr()).toBe(true);
      await expect(
        w.ctx.storage.transaction(async (tx) => {
          await applyUserChange(w.ctx, tx, w.realm, member, { isActive: false });
          publishOnCommit(w.ctx, tx, { realmId: w.realm.id, userIds: [w.owner.id], event: { type: 'invites_changed' } });
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
    });
    expect(await reload(w.ctx, member)).toEqual(member);
  });
});

describe('event types', () => {
  it('no operation sends a legacy settings event type', async () => {
    const { w, humans, admin, member, botOwner } = await world();
    await changeUserAsOperator(w.ctx, w.realm, 'owner@example.com', { canChangeUserEmails: true });
    // The deactivated user's own queues are dropped, so only the others observe.
    const observers = await observe(w, humans.filter((u) => u.id !== botOwner.id));
    must(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: member.id, full_name: 'X Member', role: 300, new_email: 'x@example.com' }));
    must(await doDeactivateUser.fromTransport(w.ctx, w.as(admin), { user_id: botOwner.id, actions: '{"delete_profile": true}' }));
    must(await doReactivateUser(w.ctx, w.as(admin), { user_id: botOwner.id }));
    for (const observer of observers) {
      const types = (await eventsOf(w, observer)).map((e) => e.type);
      expect(types.length).toBeGreaterThan(0);
      for (const legacy of LEGACY_EVENT_TYPES) expect(types).not.toContain(legacy);
      // realm_user, realm_bot, and user_group for the role change and the reactivation.
      expect(new Set(types).size).toBeLessThanOrEqual(3);
    }
  });
});
