/**
 * Shared pieces of the invitation tests: a realm with a user of every role, a public, a
 * default and a private channel, a user group, a settable clock, the mail the server sent, and
 * shortcuts for the invitation endpoints.
 */
import {
  doAcceptInvite,
  doAddDefaultStream,
  doCreateMultiuseInvite,
  doCreateUserGroup,
  doInviteUsers,
  getInvites,
  type Invitation,
  memoryMailer,
  type Realm,
  type RealmStoredSettings,
  type Stream,
  type User,
  type ApiInvitation,
} from '@teamchat/core';
import { must } from '../helpers/core.js';
import { type ChannelWorld, channel, channelWorld, subscribe } from './channel-helpers.js';
import { fakeClock } from './fixtures.js';

export interface InviteWorld extends ChannelWorld {
  clock: ReturnType<typeof fakeClock>;
  mail: ReturnType<typeof memoryMailer>;
  general: Stream;
  announce: Stream;
  secret: Stream;
  /** A group created by `member`. */
  groupId: number;
  invite(user: User, params?: Record<string, unknown>): ReturnType<typeof doInviteUsers>;
  link(user: User, params?: Record<string, unknown>): ReturnType<typeof doCreateMultiuseInvite>;
  list(user: User): Promise<ApiInvitation[]>;
  /** Every stored invitation of the realm, any status, by ID. */
  stored(): Promise<Invitation[]>;
  accept(params: Record<string, unknown>, realm?: Realm): ReturnType<typeof doAcceptInvite>;
  setRealmSettings(settings: RealmStoredSettings): Promise<void>;
}

/** An Ok result for direct storage transactions (neverthrow is core's dependency, not the tests'). */
const COMMIT = { isOk: () => true, isErr: () => false, value: undefined } as never;

export async function inviteWorld(): Promise<InviteWorld> {
  const clock = fakeClock();
  const mail = memoryMailer();
  const c = await channelWorld({ clock, mailer: mail });
  const { w } = c;
  await subscribe(w, w.owner, ['general', 'announce']);
  await subscribe(w, w.owner, ['secret'], { invite_only: true });
  const [general, announce, secret] = [await channel(w, 'general'), await channel(w, 'announce'), await channel(w, 'secret')];
  must(await doAddDefaultStream(w.ctx, w.as(w.owner), { stream_id: announce.id }));
  // Its creator and the administrators (role:administrators, ID 2) may add members to it.
  const addMembers = JSON.stringify({ direct_members: [c.member.id], direct_subgroups: [2] });
  const groupId = (must(await doCreateUserGroup.fromTransport(w.ctx, w.as(c.member), { name: 'crew', description: 'Crew', members: '[]', can_add_members_group: addMembers }))).group_id;
  c.drain();
  const stored = async () => {
    const all: Invitation[] = [];
    await w.ctx.storage.read(async (tx) => {
      for (let id = 1; id < 200; id++) {
        const found = await tx.invitations.get(w.realm.id, id);
        if (found) all.push(found);
      }
    });
    return all;
  };
  return {
    ...c,
    clock,
    mail,
    general,
    announce,
    secret,
    groupId,
    invite: (user, params = {}) => doInviteUsers(w.ctx, w.as(user), { invitee_emails: 'new@example.com', stream_ids: [], ...params }),
    link: (user, params = {}) => doCreateMultiuseInvite(w.ctx, w.as(user), params),
    list: async (user) => must(await getInvites(w.ctx, w.as(user), {})).invites,
    stored,
    accept: (params, realm = w.realm) =>
      doAcceptInvite.fromTransport(w.ctx, { realm, user: null }, { full_name: 'New Person', password: 'new-password', ...params }),
    setRealmSettings: async (settings) => {
      await w.ctx.storage.transaction(async (tx) => {
        const realm = await tx.realms.byId(w.realm.id);
        await tx.realms.update(w.realm.id, { settings: { ...realm!.settings, ...settings } });
        return COMMIT;
      });
    },
  };
}

/** The key of an invitation link `http://…/join/{key}/`. */
export const keyOf = (link: string) => /\/join\/([a-z0-9]+)\/$/.exec(link)![1]!;
