/**
 * The permission matrix's world: two realms on one server, each with one user of every role
 * (plus a deactivated user, a bot and a "victim" whose objects other users try to reach), and
 * objects of every kind the route table names by ID, built through the API itself. The second
 * realm's names all carry the word "bravo", so a response that contains it leaked that realm.
 */
import { type Ctx, createLinkVideoCallProvider, createRealm, createUserAsOperator, pushJobsSettled, type Role, type User } from '@teamchat/core/internal';
import { createSqliteContext } from '@teamchat/core/sqlite';
import { must } from '../helpers/core.js';
import { type Credentials, type MatrixRequest, type Send, sender } from './client.js';

/** The callers who hold objects of their own, lowest privilege first. */
export const ACTIVE_ROLES = ['guest', 'bot', 'member', 'moderator', 'admin', 'owner'] as const;
export type ActiveRole = (typeof ACTIVE_ROLES)[number];

/** What one user owns: IDs of objects only they may change or see. */
export interface UserObjects {
  user: User;
  /** A message they sent to the public channel. */
  messageId: number;
  draftId: number;
  scheduledMessageId: number;
  reminderId: number;
  snippetId: number;
  attachmentId: number;
  /** The upload's path under /user_uploads/: `realm_id/…/name`. */
  uploadPath: string;
  /** An event queue they registered. */
  queueId: string;
  /** Push registrations: an FCM token, an APNs token and a client device with completed E2EE registration. */
  fcmToken: string;
  apnsToken: string;
  deviceId: number;
}

/** IDs and names of one realm's objects; a request builder reads everything it names from here. */
export interface RealmIds {
  /** `alpha` or `bravo`: every name in the realm starts with it. */
  tag: string;
  host: string;
  realmId: number;
  webChannel: { id: number; name: string };
  publicChannel: { id: number; name: string };
  privateChannel: { id: number; name: string };
  /** A public channel everyone but the guest is in: guests see nothing of it. */
  lobbyChannel: { id: number; name: string };
  topic: string;
  /** A message in the web-public channel, by the victim. */
  webMessageId: number;
  privateMessageId: number;
  lobbyMessageId: number;
  /** A direct message from the victim to the owner. */
  directMessageId: number;
  groupId: number;
  /** A second group (no members), to nest under the first. */
  otherGroupId: number;
  linkifierId: number;
  playgroundId: number;
  profileFieldId: number;
  folderId: number;
  emojiName: string;
  /** Where the custom emoji's image and the victim's uploaded avatar are served (outside /api/v1). */
  emojiImagePath: string;
  avatarImagePath: string;
  domain: string;
  inviteId: number;
  multiuseInviteId: number;
  deactivated: User;
  victim: UserObjects;
  users: Record<ActiveRole, UserObjects>;
}

export interface MatrixWorld {
  ctx: Ctx;
  send: Send;
  alpha: RealmIds;
  bravo: RealmIds;
  /** Strings of the first realm that no event queued for the second realm may contain. */
  alphaMarkers: string[];
  /** Strings of the second realm that no response to a first-realm caller may contain. */
  bravoMarkers: string[];
  /**
   * First-realm strings no matrix caller may see: the private channel's and the direct
   * message's contents (only the owner and the victim are in them) and the victim's drafts,
   * scheduled messages and snippets.
   */
  victimMarkers: string[];
}

const PNG_1X1 = new Uint8Array(
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC', 'base64'),
);

/** Builds both realms; every step goes through the API and must succeed. */
export async function buildMatrixWorld(): Promise<MatrixWorld> {
  const ctx = createSqliteContext({
    config: { timers: false },
    videoCalls: createLinkVideoCallProvider('https://meet.example.com/r'),
    // A notifier that accepts E2EE registrations, so devices can complete them.
    pushNotifier: { notify: () => undefined, remove: () => undefined, registerDevice: async () => ({ registered: true }) },
  });
  const send = sender(ctx);
  const alpha = await buildRealm(ctx, send, 'alpha', 'chat.example.com', '');
  const bravo = await buildRealm(ctx, send, 'bravo', 'other.example.com', 'other');
  return { ctx, send, alpha, bravo, alphaMarkers: markersOf(alpha), bravoMarkers: markersOf(bravo), victimMarkers: privateObjectsOf(alpha, alpha.victim.user) };
}

/** Strings only the realm's own data contains: names, emails, contents, URLs. */
function markersOf(r: RealmIds): string[] {
  const people = [...Object.values(r.users).map((o) => o.user), r.victim.user, r.deactivated];
  return [
    ...people.flatMap((u) => [u.fullName, u.deliveryEmail]),
    r.webChannel.name,
    r.publicChannel.name,
    r.privateChannel.name,
    `${r.tag} web hello`,
    `${r.tag} note by`,
    `${r.tag} group`,
    `${r.tag}-field`,
    `${r.tag}-playground`,
    `${r.tag}-folder`,
    `https://${r.tag}.test`,
    `invitee-${r.tag}`,
    r.emojiName,
    r.domain,
    `${r.tag} org`,
    ...privateObjectsOf(r, r.victim.user),
  ];
}

/** Contents of a user's private objects and of the realm's private conversations. */
function privateObjectsOf(r: RealmIds, user: User): string[] {
  return [`${r.tag} private secret`, `${r.tag} direct secret`, `draft of ${user.fullName}`, `scheduled by ${user.fullName}`, `snippet body of ${user.fullName}`];
}

async function buildRealm(ctx: Ctx, send: Send, tag: string, host: string, subdomain: string): Promise<RealmIds> {
  const name = (s: string) => `${tag}-${s}`;
  const { realm, owner } = must(
    await createRealm(ctx, {
      name: `${tag} org`,
      url: `http://${host}`,
      subdomain,
      webPublicAccessEnabled: true,
      owner: { email: `owner@${tag}.test`, fullName: `${tag} Owner`, password: `${tag}-owner-password` },
    }),
  );
  const add = async (role: string, roleId: Role, extra: { bot?: boolean; botOwnerId?: number } = {}) =>
    must(await createUserAsOperator(ctx, realm, { email: `${role}@${tag}.test`, fullName: `${tag} ${role}`, role: roleId, ...extra }));
  const admin = await add('admin', 200);
  const moderator = await add('moderator', 300);
  const member = await add('member', 400);
  const guest = await add('guest', 600);
  const victim = await add('victim', 400);
  const bot = await add('bot', 400, { bot: true, botOwnerId: member.id });
  const deactivated = await add('deactivated', 400);
  const people: Record<ActiveRole, User> = { guest, bot, member, moderator, admin, owner };

  const api = async (as: Credentials, request: MatrixRequest) => {
    const response = await send(host, as, request);
    if (response.status !== 200) throw new Error(`setup ${request.method} ${request.path} failed: ${response.text}`);
    return response.body;
  };
  const everyone = [owner, admin, moderator, member, guest, victim, bot, deactivated].map((u) => u.id);
  const channel = async (label: string, settings: Record<string, string>, members: number[]) => {
    await api(owner, {
      method: 'POST',
      path: '/users/me/subscriptions',
      form: { subscriptions: JSON.stringify([{ name: name(label) }]), principals: JSON.stringify(members), ...settings },
    });
    const { stream_id } = await api(owner, { method: 'GET', path: '/get_stream_id', form: { stream: name(label) } });
    return { id: stream_id as number, name: name(label) };
  };
  const webChannel = await channel('web', { is_web_public: 'true' }, everyone);
  const publicChannel = await channel('public', {}, everyone);
  const privateChannel = await channel('private', { invite_only: 'true' }, [owner.id, victim.id]);
  const lobbyChannel = await channel('lobby', {}, everyone.filter((id) => id !== guest.id));
  const topic = name('topic');
  const sendTo = async (as: User, form: Record<string, string>) => (await api(as, { method: 'POST', path: '/messages', form })).id as number;
  const webMessageId = await sendTo(victim, { type: 'stream', to: String(webChannel.id), topic, content: `${tag} web hello` });
  const privateMessageId = await sendTo(victim, { type: 'stream', to: String(privateChannel.id), topic, content: `${tag} private secret` });
  const lobbyMessageId = await sendTo(victim, { type: 'stream', to: String(lobbyChannel.id), topic, content: `${tag} lobby note` });
  const directMessageId = await sendTo(victim, { type: 'direct', to: JSON.stringify([owner.id]), content: `${tag} direct secret` });
  must(await deactivate(send, host, owner, deactivated));
  // Reports go to a moderation channel; without one the reference refuses every report.
  await api(owner, { method: 'PATCH', path: '/realm', form: { moderation_request_channel_id: String(privateChannel.id) } });

  const future = String(Math.floor(Date.now() / 1000) + 86400 * 30);
  const objectsOf = async (user: User): Promise<UserObjects> => {
    const messageId = await sendTo(user, { type: 'stream', to: String(publicChannel.id), topic, content: `${tag} note by ${user.fullName}` });
    const draft = { type: 'stream', to: [publicChannel.id], topic, content: `${tag} draft of ${user.fullName}` };
    const { ids } = await api(user, { method: 'POST', path: '/drafts', form: { drafts: JSON.stringify([draft]) } });
    const scheduled = await api(user, {
      method: 'POST',
      path: '/scheduled_messages',
      form: { type: 'stream', to: String(publicChannel.id), topic, content: `${tag} scheduled by ${user.fullName}`, scheduled_delivery_timestamp: future },
    });
    const reminder = await api(user, { method: 'POST', path: '/reminders', form: { message_id: String(messageId), scheduled_delivery_timestamp: future } });
    const snippet = await api(user, { method: 'POST', path: '/saved_snippets', form: { title: `${tag} snippet`, content: `${tag} snippet body of ${user.fullName}` } });
    const upload = await api(user, {
      method: 'POST',
      path: '/user_uploads',
      file: { name: `${tag}-${user.id}.txt`, bytes: new TextEncoder().encode(`${tag} file`), type: 'text/plain' },
    });
    const { attachments } = await api(user, { method: 'GET', path: '/attachments' });
    const { queue_id } = await api(user, { method: 'POST', path: '/register', form: {} });
    const fcmToken = `${tag}-fcm-${user.id}`;
    const apnsToken = apnsTokenOf(user.id);
    // Push registration is for people: the reference refuses bots (human_users_only).
    let device_id = 0;
    if (!user.isBot) {
      await api(user, { method: 'POST', path: '/users/me/android_gcm_reg_id', form: { token: fcmToken } });
      await api(user, { method: 'POST', path: '/users/me/apns_device_token', form: { token: apnsToken, appid: 'org.zulip.Zulip' } });
      ({ device_id } = await api(user, { method: 'POST', path: '/register_client_device' }));
      await api(user, { method: 'POST', path: '/mobile_push/register', form: pushRegistration(device_id, user.id) });
    }
    return {
      user,
      messageId,
      draftId: ids[0],
      scheduledMessageId: scheduled.scheduled_message_id,
      reminderId: reminder.reminder_id,
      snippetId: snippet.saved_snippet_id,
      attachmentId: attachments[0].id,
      uploadPath: String(upload.url).replace('/user_uploads/', ''),
      queueId: queue_id,
      fcmToken,
      apnsToken,
      deviceId: device_id,
    };
  };
  const users = {} as Record<ActiveRole, UserObjects>;
  for (const role of ACTIVE_ROLES) users[role] = await objectsOf(people[role]);
  const victimObjects = await objectsOf(victim);
  await pushJobsSettled(ctx);

  const group = await api(owner, {
    method: 'POST',
    path: '/user_groups/create',
    form: { name: name('group'), description: `${tag} group`, members: JSON.stringify([victim.id]) },
  });
  const otherGroup = await api(owner, {
    method: 'POST',
    path: '/user_groups/create',
    form: { name: name('group-two'), description: `${tag} group two`, members: '[]' },
  });
  await api(victim, { method: 'POST', path: '/users/me/presence', form: { status: 'active' } });
  const linkifier = await api(owner, { method: 'POST', path: '/realm/filters', form: { pattern: `${tag}#(?P<id>[0-9]+)`, url_template: `https://${tag}.test/{id}` } });
  const playground = await api(owner, {
    method: 'POST',
    path: '/realm/playgrounds',
    form: { name: name('playground'), pygments_language: 'Python', url_template: `https://${tag}.test/play?code={code}` },
  });
  const field = await api(owner, { method: 'POST', path: '/realm/profile_fields', form: { name: name('field'), field_type: '1' } });
  const folder = await api(owner, { method: 'POST', path: '/channel_folders/create', form: { name: name('folder'), description: `${tag} folder` } });
  const emojiName = `${tag}_emoji`;
  await api(owner, { method: 'POST', path: `/realm/emoji/${emojiName}`, file: { name: 'e.png', bytes: PNG_1X1, type: 'image/png' } });
  const { emoji } = await api(owner, { method: 'GET', path: '/realm/emoji' });
  const emojiImagePath = String((Object.values(emoji) as { source_url: string }[])[0]!.source_url);
  await api(victim, { method: 'POST', path: '/users/me/avatar', file: { name: 'v.png', bytes: PNG_1X1, type: 'image/png' } });
  const { user: victimRecord } = await api(owner, { method: 'GET', path: `/users/${victim.id}` });
  const avatarImagePath = new URL(String(victimRecord.avatar_url), `http://${host}`).pathname;
  const domain = `${tag}.example.org`;
  await api(owner, { method: 'POST', path: '/realm/domains', form: { domain, allow_subdomains: 'false' } });
  await api(owner, { method: 'POST', path: '/invites', form: { invitee_emails: `invitee-${tag}@example.org`, stream_ids: JSON.stringify([publicChannel.id]) } });
  await api(owner, { method: 'POST', path: '/invites/multiuse', form: { stream_ids: JSON.stringify([publicChannel.id]) } });
  const { invites } = await api(owner, { method: 'GET', path: '/invites' });
  const inviteId = invites.find((i: { is_multiuse: boolean }) => !i.is_multiuse).id;
  const multiuseInviteId = invites.find((i: { is_multiuse: boolean }) => i.is_multiuse).id;

  return {
    tag,
    host,
    realmId: realm.id,
    webChannel,
    publicChannel,
    privateChannel,
    lobbyChannel,
    topic,
    webMessageId,
    privateMessageId,
    lobbyMessageId,
    directMessageId,
    groupId: group.group_id,
    otherGroupId: otherGroup.group_id,
    linkifierId: linkifier.id,
    playgroundId: playground.id,
    profileFieldId: field.id,
    folderId: folder.channel_folder_id,
    emojiName,
    emojiImagePath,
    avatarImagePath,
    domain,
    inviteId,
    multiuseInviteId,
    deactivated,
    victim: victimObjects,
    users,
  };
}

async function deactivate(send: Send, host: string, owner: User, target: User) {
  const response = await send(host, owner, { method: 'DELETE', path: `/users/${target.id}` });
  return response.status === 200 ? { isOk: () => true, value: response } : { isOk: () => false, error: response.text };
}



/** A valid APNs token (64 hex digits) that differs per number. */
export const apnsTokenOf = (n: number) => n.toString(16).padStart(64, '0');

/** The form of POST /mobile_push/register for a device, as the mobile app sends it. */
export function pushRegistration(deviceId: number, n: number): Record<string, string> {
  return {
    device_id: String(deviceId),
    push_key: Buffer.concat([Buffer.from([0x31]), Buffer.alloc(32, n % 256)]).toString('base64'),
    push_key_id: String(n),
    token_kind: 'apns',
    token_id: Buffer.alloc(8, n % 256).toString('base64'),
    bouncer_public_key: 'k',
    encrypted_push_registration: 'e',
  };
}
