/**
 * The permission matrix's one table: for every `METHOD /path` of the route table, who may call
 * it, a request that succeeds for that caller, and whether it may reach another user's objects.
 * A route without a row here fails the matrix (tests/matrix/coverage.test.ts) until one is added.
 *
 * Citations: "API 5.5" is /work/shared/spec/API.md section 5.5; "ref" names the reference
 * server's default permission setting (REALM_GROUP_SETTING_DEFAULTS mirrors them) or its view.
 * Every row implies the common rules checked for all routes: another realm's IDs get the same
 * answer as unknown IDs and never that realm's data (API 2.1, ref access_*_by_id helpers), a
 * deactivated user or bad credentials get 401 (API 5.4, FACTS 3.2), spectators get 401 unless
 * the row allows them (API 5.3).
 */
import type { MatrixRequest } from './client.js';
import { apnsTokenOf, pushRegistration, type RealmIds, type UserObjects } from './world.js';

/** Callers from least to most privileged; a bot is a member-role account that is not a person. */
export type Level = 'anyone' | 'spectator' | 'guest' | 'member' | 'moderator' | 'admin' | 'owner';
export type Caller = 'guest' | 'bot' | 'member' | 'moderator' | 'admin' | 'owner';

export interface Rule {
  /** The least privileged caller who may succeed, or the exact set of callers who may. */
  allow: Level | Caller[];
  /** Bots may call it (default: when members may). */
  bots?: boolean;
  /** Why: the API.md section or the reference's rule. */
  why: string;
  /** A request that succeeds for an allowed caller: `r` is the realm's IDs, `mine` the caller's objects. */
  request: (r: RealmIds, mine: UserObjects) => MatrixRequest;
  /**
   * For a request naming the caller's own objects: may it name another user's instead? `denied`
   * for everyone, `allowed`, or the least role that may (for example admins deleting any message);
   * `n/a` where the caller's objects only keep the names the request creates unique.
   */
  otherUser?: 'denied' | 'allowed' | 'n/a' | Level;
  /** Why the request's names are not IDs (a name from another realm just names something new here). */
  namesOnly?: string;
  /**
   * Routes that change what other rows rely on run in another world: `deletes` (removals and
   * deactivations, in table order, where nothing after needs what they remove), `lifecycle`
   * (reactivation: the deactivated caller is active after it; key regeneration), `archive`
   * (the channel).
   */
  family?: string;
  /** Why no request of ours can succeed (for example it needs a secret sent by email). */
  neverSucceeds?: string;
}

const json = (value: unknown) => JSON.stringify(value);
const get = (path: string, form?: Record<string, string>): MatrixRequest => ({ method: 'GET', path, form });
const post = (path: string, form?: Record<string, string>): MatrixRequest => ({ method: 'POST', path, form });
const patch = (path: string, form?: Record<string, string>): MatrixRequest => ({ method: 'PATCH', path, form });
const put = (path: string, form?: Record<string, string>): MatrixRequest => ({ method: 'PUT', path, form });
const del = (path: string, form?: Record<string, string>): MatrixRequest => ({ method: 'DELETE', path, form });
const PNG = new Uint8Array(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC', 'base64'));
const png = { name: 'a.png', bytes: PNG, type: 'image/png' };
const later = () => String(Math.floor(Date.now() / 1000) + 86400 * 20);
const channelNarrow = (r: RealmIds) => json([{ operator: 'channel', operand: r.publicChannel.id }]);

/** Keyed by `METHOD path` exactly as in ROUTES. */
export const EXPECTATIONS: Record<string, Rule> = {
  'GET /server_settings': { allow: 'anyone', why: 'API 5.2', request: () => get('/server_settings') },
  'POST /fetch_api_key': {
    allow: 'anyone',
    why: 'ref fetch_api_key: password login, no identity; another realm’s account is refused',
    request: (r) => post('/fetch_api_key', { username: `owner@${r.tag}.test`, password: `${r.tag}-owner-password` }),
  },
  'POST /register': { allow: 'spectator', why: 'ref: spectators register in realms with spectator access', request: () => post('/register') },
  'GET /events': {
    allow: 'guest',
    why: 'ref get_events: a queue is read only by the user who registered it',
    request: (_r, mine) => get('/events', { queue_id: mine.queueId, last_event_id: '-1', dont_block: 'true' }),
    otherUser: 'denied',
  },
  'DELETE /events': {
    allow: 'guest',
    why: 'ref cleanup_event_queue: only the queue’s user',
    request: (_r, mine) => del('/events', { queue_id: mine.queueId }),
    otherUser: 'denied',
  },
  'POST /typing': {
    allow: 'guest',
    why: 'API 4.1',
    request: (r) => post('/typing', { type: 'stream', op: 'start', stream_id: String(r.publicChannel.id), topic: r.topic }),
  },
  'PATCH /settings': { allow: 'guest', why: 'ref: own settings', request: () => patch('/settings', { enter_sends: 'true' }) },
  'PATCH /settings/display': { allow: 'guest', why: 'ref: alias of PATCH /settings', request: () => patch('/settings/display', { enter_sends: 'true' }) },
  'PATCH /settings/notifications': { allow: 'guest', why: 'ref: alias of PATCH /settings', request: () => patch('/settings/notifications', { enter_sends: 'true' }) },
  'GET /users': { allow: 'spectator', why: 'API 5.3 (FL 387)', request: () => get('/users') },
  'POST /users': {
    allow: 'owner',
    why: 'API 4.19, 5.5: administrators with can_create_users; only the first owner holds it here',
    request: (r, mine) => post('/users', { email: `made-${mine.user.id}@${r.tag}.test`, password: 'made-password-1', full_name: `${r.tag} made` }),
    otherUser: 'n/a',
  },
  'GET /users/me': { allow: 'guest', why: 'ref: own record', request: () => get('/users/me') },
  'GET /drafts': { allow: 'guest', why: 'API 2.4: own drafts', request: () => get('/drafts') },
  'POST /drafts': {
    allow: 'guest',
    why: 'API 4.10',
    request: (r) => post('/drafts', { drafts: json([{ type: 'stream', to: [r.publicChannel.id], topic: r.topic, content: 'more' }]) }),
  },
  'PATCH /drafts/{draft_id}': {
    allow: 'guest',
    why: 'API 4.11: a draft that is not the caller’s does not exist for them',
    request: (r, mine) => patch(`/drafts/${mine.draftId}`, { draft: json({ type: 'stream', to: [r.publicChannel.id], topic: r.topic, content: 'edited' }) }),
    otherUser: 'denied',
  },
  'DELETE /drafts/{draft_id}': { allow: 'guest', why: 'API 2.4', request: (_r, mine) => del(`/drafts/${mine.draftId}`), otherUser: 'denied' },
  'GET /scheduled_messages': { allow: 'guest', why: 'ref: own scheduled messages', request: () => get('/scheduled_messages') },
  'POST /scheduled_messages': {
    allow: 'guest',
    why: 'API 2.5: anyone who may send to the channel',
    request: (r) =>
      post('/scheduled_messages', { type: 'stream', to: String(r.publicChannel.id), topic: r.topic, content: 'later', scheduled_delivery_timestamp: later() }),
  },
  'PATCH /scheduled_messages/{scheduled_message_id}': {
    allow: 'guest',
    why: 'API 4.3',
    request: (_r, mine) => patch(`/scheduled_messages/${mine.scheduledMessageId}`, { content: 'edited' }),
    otherUser: 'denied',
  },
  'DELETE /scheduled_messages/{scheduled_message_id}': {
    allow: 'guest',
    why: 'API 2.5',
    request: (_r, mine) => del(`/scheduled_messages/${mine.scheduledMessageId}`),
    otherUser: 'denied',
  },
  'GET /reminders': { allow: 'guest', why: 'ref: own reminders', request: () => get('/reminders') },
  'POST /reminders': {
    allow: 'guest',
    why: 'ref: a reminder about any message the caller can read',
    request: (_r, mine) => post('/reminders', { message_id: String(mine.messageId), scheduled_delivery_timestamp: later() }),
    otherUser: 'allowed',
  },
  'DELETE /reminders/{reminder_id}': { allow: 'guest', why: 'ref: own reminders', request: (_r, mine) => del(`/reminders/${mine.reminderId}`), otherUser: 'denied' },
  'GET /users/me/alert_words': { allow: 'guest', why: 'ref: own', request: () => get('/users/me/alert_words') },
  'POST /users/me/alert_words': { allow: 'guest', why: 'ref: own', request: () => post('/users/me/alert_words', { alert_words: json(['watch']) }) },
  'DELETE /users/me/alert_words': { allow: 'guest', why: 'ref: own', request: () => del('/users/me/alert_words', { alert_words: json(['watch']) }) },
  'GET /users/me/subscriptions': { allow: 'guest', why: 'ref: own', request: () => get('/users/me/subscriptions') },
  'POST /users/me/subscriptions': {
    // The reference lets guests subscribe only where can_subscribe_group allows; ours refuses guests.
    allow: 'member',
    why: 'ref: (re)subscribing oneself to a channel one can access',
    request: (r) => post('/users/me/subscriptions', { subscriptions: json([{ name: r.publicChannel.name }]) }),
    namesOnly: 'a channel name that does not exist here creates that channel',
  },
  'DELETE /users/me/subscriptions': {
    allow: 'guest',
    why: 'ref: unsubscribing oneself',
    request: (r) => del('/users/me/subscriptions', { subscriptions: json([r.webChannel.name]) }),
    family: 'deletes',
  },
  'POST /users/me/subscriptions/properties': {
    allow: 'guest',
    why: 'ref: own subscription properties',
    request: (r) => post('/users/me/subscriptions/properties', { subscription_data: json([{ stream_id: r.publicChannel.id, property: 'pin_to_top', value: true }]) }),
  },
  'POST /users/me/avatar': { allow: 'guest', why: 'ref: own avatar', request: () => ({ method: 'POST', path: '/users/me/avatar', file: png }) },
  'DELETE /users/me/avatar': { allow: 'guest', why: 'ref: own avatar', request: () => del('/users/me/avatar') },
  'POST /users/me/api_key/regenerate': {
    allow: 'guest',
    why: 'ref: own key',
    request: () => post('/users/me/api_key/regenerate'),
    // A new key drops the user's push registrations (FL 492), which the push rows use.
    family: 'lifecycle',
  },
  'GET /users/{user_id}': { allow: 'guest', why: 'API 2.2, ref can_access_all_users_group = everyone', request: (r) => get(`/users/${r.victim.user.id}`) },
  'PATCH /users/{user_id}': { allow: 'admin', why: 'API 4.8, 5.5', request: (r) => patch(`/users/${r.victim.user.id}`, { full_name: `${r.tag} renamed` }) },
  'DELETE /users/{user_id}': { allow: 'admin', why: 'API 4.14, 5.5', request: (r) => del(`/users/${r.victim.user.id}`), family: 'deletes' },
  'POST /users/{user_id}/reactivate': {
    allow: 'admin',
    why: 'ref reactivate_user_backend: administrators',
    request: (r) => post(`/users/${r.deactivated.id}/reactivate`),
    family: 'lifecycle',
  },
  'GET /users/{user_id}/subscriptions/{stream_id}': {
    allow: 'guest',
    why: 'ref: subscription status of a channel the caller can access',
    request: (r) => get(`/users/${r.victim.user.id}/subscriptions/${r.publicChannel.id}`),
  },
  // Guests own no bots; ours refuses them (the reference answers an empty list).
  'GET /bots': { allow: 'member', why: 'ref: the caller’s own bots', request: () => get('/bots') },
  'POST /bots': {
    allow: 'member',
    bots: false,
    why: 'ref can_create_bots_group = members; bots do not create bots',
    request: (r, mine) => post('/bots', { full_name: `${r.tag} made bot ${mine.user.id}`, short_name: `made${mine.user.id}` }),
    otherUser: 'n/a',
  },
  'PATCH /bots/{bot_id}': {
    allow: ['member', 'admin', 'owner'],
    why: 'ref access_bot_by_id: the bot’s owner (the member here) or an administrator',
    request: (r) => patch(`/bots/${r.users.bot.user.id}`, { full_name: `${r.tag} renamed bot` }),
  },
  'DELETE /bots/{bot_id}': {
    allow: ['member', 'admin', 'owner'],
    why: 'ref access_bot_by_id',
    request: (r) => del(`/bots/${r.users.bot.user.id}`),
    family: 'deletes',
  },
  'POST /bots/{bot_id}/api_key/regenerate': {
    allow: ['member', 'admin', 'owner'],
    why: 'ref access_bot_by_id',
    request: (r) => post(`/bots/${r.users.bot.user.id}/api_key/regenerate`),
  },
  'POST /users/me/presence': { allow: 'guest', why: 'ref: own presence', request: () => post('/users/me/presence', { status: 'active' }) },
  'GET /users/{user_id_or_email}/presence': { allow: 'guest', why: 'ref: any accessible user', request: (r) => get(`/users/${r.victim.user.id}/presence`) },
  'GET /realm/presence': { allow: 'guest', why: 'ref', request: () => get('/realm/presence') },
  'GET /streams': { allow: 'guest', why: 'ref: channels the caller can access', request: () => get('/streams') },
  'POST /channels/create': {
    allow: 'member',
    why: 'ref can_create_public_channel_group = members',
    request: (r, mine) => post('/channels/create', { name: `${r.tag}-made-${mine.user.id}`, subscribers: json([mine.user.id]) }),
    otherUser: 'n/a',
  },
  'GET /streams/{stream_id}': { allow: 'guest', why: 'ref access_stream_by_id', request: (r) => get(`/streams/${r.publicChannel.id}`) },
  'PATCH /streams/{stream_id}': {
    allow: 'admin',
    why: 'ref can_administer_channel_group: administrators (and the creator, the owner here)',
    request: (r) => patch(`/streams/${r.publicChannel.id}`, { description: 'changed' }),
  },
  'DELETE /streams/{stream_id}': { allow: 'admin', why: 'ref: archiving needs can_administer_channel', request: (r) => del(`/streams/${r.publicChannel.id}`), family: 'archive' },
  'GET /streams/{stream_id}/members': { allow: 'guest', why: 'ref: subscribers of an accessible channel', request: (r) => get(`/streams/${r.publicChannel.id}/members`) },
  'GET /get_stream_id': { allow: 'guest', why: 'ref', request: (r) => get('/get_stream_id', { stream: r.publicChannel.name }) },
  'GET /default_streams': { allow: 'guest', why: 'ref', request: () => get('/default_streams') },
  'POST /default_streams': { allow: 'admin', why: 'ref: require_realm_admin', request: (r) => post('/default_streams', { stream_id: String(r.publicChannel.id) }) },
  'DELETE /default_streams': { allow: 'admin', why: 'ref: require_realm_admin', request: (r) => del('/default_streams', { stream_id: String(r.publicChannel.id) }) },
  'GET /messages': {
    allow: 'guest',
    why: 'ref: messages the caller can read',
    request: (r) => get('/messages', { narrow: channelNarrow(r), anchor: 'newest', num_before: '5', num_after: '0' }),
  },
  'POST /messages': {
    allow: 'guest',
    why: 'ref: subscribers may post',
    request: (r) => post('/messages', { type: 'stream', to: String(r.publicChannel.id), topic: r.topic, content: 'hello again' }),
  },
  'GET /messages/matches_narrow': {
    allow: 'guest',
    why: 'ref: only messages the caller can read',
    request: (r) => get('/messages/matches_narrow', { msg_ids: json([r.webMessageId, r.privateMessageId, r.lobbyMessageId]), narrow: '[]' }),
  },
  'POST /messages/matches_narrow': {
    allow: 'guest',
    why: 'ref: only messages the caller can read',
    request: (r) => post('/messages/matches_narrow', { msg_ids: json([r.webMessageId, r.privateMessageId, r.lobbyMessageId]), narrow: '[]' }),
  },
  'POST /messages/render': { allow: 'guest', why: 'ref', request: () => post('/messages/render', { content: '**hi**' }) },
  'POST /messages/flags': {
    allow: 'guest',
    why: 'API 4.16',
    request: (r) => post('/messages/flags', { messages: json([r.webMessageId]), op: 'add', flag: 'starred' }),
  },
  'POST /messages/flags/narrow': {
    allow: 'guest',
    why: 'ref',
    request: (r) => post('/messages/flags/narrow', { narrow: channelNarrow(r), anchor: 'newest', num_before: '5', num_after: '0', op: 'add', flag: 'read' }),
  },
  'POST /mark_all_as_read': { allow: 'guest', why: 'ref', request: () => post('/mark_all_as_read') },
  'POST /mark_stream_as_read': { allow: 'guest', why: 'ref', request: (r) => post('/mark_stream_as_read', { stream_id: String(r.publicChannel.id) }) },
  'POST /mark_topic_as_read': {
    allow: 'guest',
    why: 'API 4.13',
    request: (r) => post('/mark_topic_as_read', { stream_id: String(r.publicChannel.id), topic_name: r.topic }),
  },
  'GET /messages/{message_id}': { allow: 'guest', why: 'ref access_message', request: (r) => get(`/messages/${r.webMessageId}`) },
  'PATCH /messages/{message_id}': {
    allow: 'guest',
    why: 'ref: only the sender edits content',
    request: (_r, mine) => patch(`/messages/${mine.messageId}`, { content: 'edited' }),
    otherUser: 'denied',
  },
  'DELETE /messages/{message_id}': {
    allow: 'guest',
    why: 'ref can_delete_own_message_group = everyone, can_delete_any_message_group = administrators',
    request: (_r, mine) => del(`/messages/${mine.messageId}`),
    otherUser: 'admin',
    family: 'deletes',
  },
  'GET /messages/{message_id}/history': {
    allow: 'guest',
    why: 'ref: history of a readable message',
    request: (_r, mine) => get(`/messages/${mine.messageId}/history`),
    otherUser: 'allowed',
  },
  'POST /messages/{message_id}/typing': {
    allow: 'guest',
    why: 'ref: typing while editing a readable message',
    request: (_r, mine) => post(`/messages/${mine.messageId}/typing`, { op: 'start' }),
    otherUser: 'allowed',
  },
  'POST /streams/{stream_id}/delete_topic': {
    allow: 'admin',
    why: 'API 4.9, 5.5',
    request: (r) => post(`/streams/${r.publicChannel.id}/delete_topic`, { topic_name: r.topic }),
    family: 'deletes',
  },
  'GET /users/me/{stream_id}/topics': { allow: 'guest', why: 'ref', request: (r) => get(`/users/me/${r.publicChannel.id}/topics`) },
  'POST /messages/{message_id}/reactions': {
    allow: 'guest',
    why: 'ref: any readable message',
    request: (r) => post(`/messages/${r.webMessageId}/reactions`, { emoji_name: 'smile' }),
  },
  'DELETE /messages/{message_id}/reactions': {
    allow: 'guest',
    why: 'API 4.15: only one’s own reaction',
    request: (r) => del(`/messages/${r.webMessageId}/reactions`, { emoji_name: 'smile' }),
  },
  'POST /messages/{message_id}/report': {
    allow: 'guest',
    why: 'ref: any readable message of someone else',
    request: (r) => post(`/messages/${r.webMessageId}/report`, { report_type: 'spam' }),
  },
  'POST /submessage': {
    allow: 'guest',
    why: 'ref: submessages on a readable message',
    request: (_r, mine) => post('/submessage', { message_id: String(mine.messageId), msg_type: 'widget', content: json({ type: 'vote' }) }),
    otherUser: 'allowed',
  },
  'PATCH /realm': { allow: 'admin', why: 'ref: require_realm_admin', request: () => patch('/realm', { description: 'changed' }) },
  'GET /realm/emoji': { allow: 'guest', why: 'ref', request: () => get('/realm/emoji') },
  'GET /realm/linkifiers': { allow: 'guest', why: 'ref', request: () => get('/realm/linkifiers') },
  'PATCH /realm/linkifiers': {
    allow: 'admin',
    why: 'ref: require_realm_admin',
    request: (r) => patch('/realm/linkifiers', { ordered_linkifier_ids: json([r.linkifierId]) }),
  },
  'GET /realm/filters': { allow: 'guest', why: 'ref', request: () => get('/realm/filters') },
  'POST /realm/filters': {
    allow: 'admin',
    why: 'ref: require_realm_admin',
    request: (r, mine) => post('/realm/filters', { pattern: `made${mine.user.id}#(?P<id>[0-9]+)`, url_template: `https://${r.tag}.test/x/{id}` }),
    otherUser: 'n/a',
  },
  'PATCH /realm/filters/{filter_id}': {
    allow: 'admin',
    why: 'API 4.17',
    request: (r) => patch(`/realm/filters/${r.linkifierId}`, { pattern: `${r.tag}#(?P<id>[0-9]+)`, url_template: `https://${r.tag}.test/y/{id}` }),
  },
  'DELETE /realm/filters/{filter_id}': { allow: 'admin', why: 'ref: require_realm_admin', request: (r) => del(`/realm/filters/${r.linkifierId}`), family: 'deletes' },
  'GET /bot_storage': { allow: 'guest', why: 'ref storage.py: keyed by the caller, not limited to bots', request: () => get('/bot_storage') },
  'PUT /bot_storage': { allow: 'guest', why: 'ref storage.py', request: () => put('/bot_storage', { storage: json({ k: 'v' }) }) },
  'DELETE /bot_storage': { allow: 'guest', why: 'ref storage.py', request: () => del('/bot_storage', { keys: json(['k']) }) },
  'POST /realm/playgrounds': {
    allow: 'admin',
    why: 'ref: require_realm_admin',
    request: (r, mine) => post('/realm/playgrounds', { name: `made ${mine.user.id}`, pygments_language: 'Rust', url_template: `https://${r.tag}.test/p?c={code}` }),
    otherUser: 'n/a',
  },
  'DELETE /realm/playgrounds/{playground_id}': {
    allow: 'admin',
    why: 'ref: require_realm_admin',
    request: (r) => del(`/realm/playgrounds/${r.playgroundId}`),
    family: 'deletes',
  },
  'PATCH /realm/user_settings_defaults': { allow: 'admin', why: 'ref: require_realm_admin', request: () => patch('/realm/user_settings_defaults', { enter_sends: 'true' }) },
  'GET /realm/domains': { allow: 'guest', why: 'ref', request: () => get('/realm/domains') },
  'POST /realm/domains': { allow: 'owner', why: 'ref: require_realm_owner', request: (r, mine) => post('/realm/domains', { domain: `d${mine.user.id}.${r.tag}.org`, allow_subdomains: 'false' }), otherUser: 'n/a' },
  'PATCH /realm/domains/{domain}': { allow: 'owner', why: 'ref: require_realm_owner', request: (r) => patch(`/realm/domains/${r.domain}`, { allow_subdomains: 'true' }) },
  'DELETE /realm/domains/{domain}': { allow: 'owner', why: 'ref: require_realm_owner', request: (r) => del(`/realm/domains/${r.domain}`), family: 'deletes' },
  'GET /realm/profile_fields': { allow: 'guest', why: 'ref', request: () => get('/realm/profile_fields') },
  'POST /realm/profile_fields': {
    allow: 'admin',
    why: 'ref: require_realm_admin',
    request: (_r, mine) => post('/realm/profile_fields', { name: `made ${mine.user.id}`, field_type: '1' }),
    otherUser: 'n/a',
  },
  'PATCH /realm/profile_fields': {
    allow: 'admin',
    why: 'ref: require_realm_admin',
    // The order lists every field, so fields added by other rows would make it invalid.
    request: (r) => patch('/realm/profile_fields', { order: json([r.profileFieldId]) }),
    family: 'deletes',
  },
  'PATCH /realm/profile_fields/{field_id}': {
    allow: 'admin',
    why: 'API 4.7',
    request: (r) => patch(`/realm/profile_fields/${r.profileFieldId}`, { hint: 'changed' }),
  },
  'DELETE /realm/profile_fields/{field_id}': {
    allow: 'admin',
    why: 'ref: require_realm_admin',
    request: (r) => del(`/realm/profile_fields/${r.profileFieldId}`),
    family: 'deletes',
  },
  'PATCH /users/me/profile_data': {
    allow: 'guest',
    why: 'API 4.12',
    request: (r) => patch('/users/me/profile_data', { data: json([{ id: r.profileFieldId, value: 'mine' }]) }),
  },
  'POST /realm/emoji/{emoji_name}': {
    allow: 'member',
    why: 'ref can_add_custom_emoji_group = members',
    request: (_r, mine) => ({ method: 'POST', path: `/realm/emoji/made_${mine.user.id}`, file: png }),
    otherUser: 'n/a',
  },
  'DELETE /realm/emoji/{emoji_name}': {
    allow: 'admin',
    why: 'ref: administrators or the emoji’s author (the owner here)',
    request: (r) => del(`/realm/emoji/${r.emojiName}`),
    family: 'deletes',
  },
  'GET /user_groups': { allow: 'guest', why: 'ref', request: () => get('/user_groups') },
  'POST /user_groups/create': {
    allow: 'member',
    why: 'ref can_create_groups = members',
    request: (r, mine) => post('/user_groups/create', { name: `${r.tag}-made-${mine.user.id}`, description: 'made', members: json([mine.user.id]) }),
    otherUser: 'n/a',
  },
  'GET /user_groups/{user_group_id}/members': { allow: 'guest', why: 'ref', request: (r) => get(`/user_groups/${r.groupId}/members`) },
  'POST /user_groups/{user_group_id}/members': {
    allow: 'owner',
    why: 'ref can_manage_all_groups = owners; the group’s creator (the owner) manages it',
    request: (r, mine) => post(`/user_groups/${r.groupId}/members`, { add: json([mine.user.id]) }),
    otherUser: 'owner',
  },
  'GET /user_groups/{user_group_id}/members/{user_id}': {
    allow: 'guest',
    why: 'ref',
    request: (r) => get(`/user_groups/${r.groupId}/members/${r.victim.user.id}`),
  },
  'GET /user_groups/{user_group_id}/subgroups': { allow: 'guest', why: 'ref', request: (r) => get(`/user_groups/${r.groupId}/subgroups`) },
  'POST /user_groups/{user_group_id}/subgroups': {
    allow: 'owner',
    why: 'ref: group managers',
    request: (r) => post(`/user_groups/${r.groupId}/subgroups`, { add: json([r.otherGroupId]) }),
  },
  'POST /user_groups/{user_group_id}/deactivate': {
    allow: 'owner',
    why: 'ref: group managers',
    request: (r) => post(`/user_groups/${r.groupId}/deactivate`),
    family: 'deletes',
  },
  'PATCH /user_groups/{user_group_id}': { allow: 'owner', why: 'ref: group managers', request: (r) => patch(`/user_groups/${r.groupId}`, { description: 'changed' }) },
  'GET /navigation_views': { allow: 'guest', why: 'API 2.8: own views', request: () => get('/navigation_views') },
  'POST /navigation_views': {
    allow: 'guest',
    why: 'API 2.8',
    request: (r) => post('/navigation_views', { fragment: `narrow/channel/${r.publicChannel.id}`, is_pinned: 'true', name: 'pinned' }),
    namesOnly: 'a fragment is free text: nothing in it is looked up',
  },
  'PATCH /navigation_views/{+fragment}': {
    allow: 'guest',
    why: 'API 4.18',
    request: (r) => patch(`/navigation_views/narrow/channel/${r.publicChannel.id}`, { is_pinned: 'false' }),
    namesOnly: 'a fragment is free text: nothing in it is looked up',
  },
  'DELETE /navigation_views/{+fragment}': {
    allow: 'guest',
    why: 'API 2.8',
    request: (r) => del(`/navigation_views/narrow/channel/${r.publicChannel.id}`),
    namesOnly: 'a fragment is free text: nothing in it is looked up',
  },
  'GET /saved_snippets': { allow: 'guest', why: 'ref: own', request: () => get('/saved_snippets') },
  'POST /saved_snippets': { allow: 'guest', why: 'ref: own', request: () => post('/saved_snippets', { title: 't', content: 'c' }) },
  'PATCH /saved_snippets/{saved_snippet_id}': {
    allow: 'guest',
    why: 'ref: own',
    request: (_r, mine) => patch(`/saved_snippets/${mine.snippetId}`, { title: 'edited' }),
    otherUser: 'denied',
  },
  'DELETE /saved_snippets/{saved_snippet_id}': {
    allow: 'guest',
    why: 'ref: own',
    request: (_r, mine) => del(`/saved_snippets/${mine.snippetId}`),
    otherUser: 'denied',
  },
  'POST /calls/videoprovider/create': { allow: 'guest', why: 'API 4.21', request: () => post('/calls/videoprovider/create') },
  'POST /user_uploads': {
    allow: 'guest',
    why: 'ref',
    request: () => ({ method: 'POST', path: '/user_uploads', file: { name: 'n.txt', bytes: new TextEncoder().encode('x'), type: 'text/plain' } }),
  },
  'GET /user_uploads/{realm_id}/{+filename}': {
    allow: 'guest',
    why: 'ref validate_attachment_request: the uploader, or readers of a message linking it',
    request: (_r, mine) => get(`/user_uploads/${mine.uploadPath}`),
    otherUser: 'denied',
  },
  'GET /attachments': { allow: 'guest', why: 'ref: own uploads', request: () => get('/attachments') },
  'DELETE /attachments/{attachment_id}': {
    allow: 'guest',
    why: 'API 4.20: own uploads',
    request: (_r, mine) => del(`/attachments/${mine.attachmentId}`),
    otherUser: 'denied',
  },
  'POST /user_topics': {
    allow: 'guest',
    why: 'ref: own topic settings',
    request: (r) => post('/user_topics', { stream_id: String(r.publicChannel.id), topic: r.topic, visibility_policy: '1' }),
  },
  'PATCH /users/me/subscriptions/muted_topics': {
    allow: 'guest',
    why: 'ref: own topic settings',
    request: (r) => patch('/users/me/subscriptions/muted_topics', { stream_id: String(r.publicChannel.id), topic: r.topic, op: 'add' }),
  },
  'GET /channel_folders': { allow: 'guest', why: 'ref', request: () => get('/channel_folders') },
  'PATCH /channel_folders': { allow: 'admin', why: 'ref: require_realm_admin', request: (r) => patch('/channel_folders', { order: json([r.folderId]) }) },
  'POST /channel_folders/create': { allow: 'admin', why: 'ref: require_realm_admin', request: (_r, mine) => post('/channel_folders/create', { name: `made ${mine.user.id}`, description: '' }), otherUser: 'n/a' },
  'PATCH /channel_folders/{channel_folder_id}': {
    allow: 'admin',
    why: 'ref: require_realm_admin',
    request: (r) => patch(`/channel_folders/${r.folderId}`, { description: 'changed' }),
  },
  'GET /invites': { allow: 'member', why: 'ref: the caller’s invitations (all for administrators); guests may not invite', request: () => get('/invites') },
  'POST /invites': {
    allow: 'member',
    why: 'API 4.5, ref can_invite_users_group = members',
    request: (r, mine) => post('/invites', { invitee_emails: `made-${mine.user.id}@${r.tag}.org`, stream_ids: json([r.publicChannel.id]) }),
    otherUser: 'n/a',
  },
  'POST /invites/multiuse': {
    allow: 'admin',
    why: 'API 4.6, ref create_multiuse_invite_group = administrators',
    request: (r) => post('/invites/multiuse', { stream_ids: json([r.publicChannel.id]) }),
  },
  'POST /invites/accept': {
    allow: 'anyone',
    why: 'ref: signing up with an emailed key',
    request: () => post('/invites/accept', { key: 'not-a-key', full_name: 'x', password: 'y-password' }),
    neverSucceeds: 'the key is only ever sent by email',
  },
  'DELETE /invites/{invite_id}': { allow: 'admin', why: 'ref: administrators or the inviter (the owner here)', request: (r) => del(`/invites/${r.inviteId}`), family: 'deletes' },
  'DELETE /invites/multiuse/{invite_id}': {
    allow: 'admin',
    why: 'ref: administrators or the link’s creator (the owner here)',
    request: (r) => del(`/invites/multiuse/${r.multiuseInviteId}`),
    family: 'deletes',
  },
  'POST /invites/{invite_id}/resend': { allow: 'admin', why: 'ref: administrators or the inviter', request: (r) => post(`/invites/${r.inviteId}/resend`) },
  'POST /users/me/status': { allow: 'guest', why: 'ref: own status', request: () => post('/users/me/status', { status_text: 'busy' }) },
  'GET /users/{user_id}/status': { allow: 'guest', why: 'ref', request: (r) => get(`/users/${r.victim.user.id}/status`) },
  'POST /users/{user_id}/status': {
    allow: 'admin',
    why: 'ref: administrators update others’ status',
    request: (r) => post(`/users/${r.victim.user.id}/status`, { status_text: 'set by admin' }),
  },
  'POST /users/me/muted_users/{muted_user_id}': { allow: 'guest', why: 'ref', request: (r) => post(`/users/me/muted_users/${r.victim.user.id}`) },
  'DELETE /users/me/muted_users/{muted_user_id}': { allow: 'guest', why: 'ref', request: (r) => del(`/users/me/muted_users/${r.victim.user.id}`) },
  // Push registration: human_users_only in the reference.
  'POST /users/me/android_gcm_reg_id': {
    allow: 'guest',
    bots: false,
    why: 'ref push_notifications.py: the caller’s own device tokens',
    request: (_r, mine) => post('/users/me/android_gcm_reg_id', { token: `made-fcm-${mine.user.id}` }),
    otherUser: 'n/a',
  },
  'DELETE /users/me/android_gcm_reg_id': {
    allow: 'guest',
    bots: false,
    why: 'ref: only the caller’s own tokens ("Token does not exist")',
    request: (_r, mine) => del('/users/me/android_gcm_reg_id', { token: mine.fcmToken }),
    otherUser: 'denied',
  },
  'POST /users/me/apns_device_token': {
    allow: 'guest',
    bots: false,
    why: 'ref push_notifications.py',
    request: (_r, mine) => post('/users/me/apns_device_token', { token: apnsTokenOf(100_000 + mine.user.id), appid: 'org.zulip.Zulip' }),
    otherUser: 'n/a',
  },
  'DELETE /users/me/apns_device_token': {
    allow: 'guest',
    bots: false,
    why: 'ref: only the caller’s own tokens',
    request: (_r, mine) => del('/users/me/apns_device_token', { token: mine.apnsToken }),
    otherUser: 'denied',
  },
  // A bot may hold a device record; its token and E2EE registrations are refused.
  'POST /register_client_device': { allow: 'guest', why: 'ref: the caller’s own device', request: () => post('/register_client_device') },
  'POST /remove_client_device': {
    allow: 'guest',
    bots: false,
    why: 'ref: only the caller’s own devices ("Invalid `device_id`")',
    request: (_r, mine) => post('/remove_client_device', { device_id: String(mine.deviceId) }),
    otherUser: 'denied',
    family: 'deletes',
  },
  'POST /mobile_push/register': {
    allow: 'guest',
    bots: false,
    why: 'ref: E2EE registration of the caller’s own device',
    request: (_r, mine) => post('/mobile_push/register', pushRegistration(mine.deviceId, 1000 + mine.user.id)),
    otherUser: 'denied',
  },
  'POST /mobile_push/test_notification': { allow: 'guest', bots: false, why: 'ref: to the caller’s own devices', request: () => post('/mobile_push/test_notification') },
  'POST /mobile_push/e2ee/test_notification': {
    allow: 'guest',
    bots: false,
    why: 'ref: to the caller’s own registered devices',
    request: (_r, mine) => post('/mobile_push/e2ee/test_notification', { device_id: String(mine.deviceId) }),
    otherUser: 'denied',
  },
  'GET /messages/{message_id}/read_receipts': { allow: 'guest', why: 'ref', request: (r) => get(`/messages/${r.webMessageId}/read_receipts`) },
};
