/**
 * Published events are plain data (#12 item 2, #13): every event type, built by running the real
 * actions, survives JSON.stringify/JSON.parse and is delivered identically from the copy, for
 * queues of every relevant option and capability. This is what a second server process,
 * receiving the published events over the wire, must deliver.
 */
import {
  announceVideoProviderToken,
  CLIENT_CAPABILITIES,
  type ClientCapability,
  doAddAlertWords,
  doAddDefaultStream,
  doAddLinkifier,
  doAddNavigationView,
  doAddPlayground,
  doAddReaction,
  doAddRealmDomain,
  doAddRealmEmoji,
  doArchiveStream,
  doCreateBot,
  doCreateChannel,
  doCreateChannelFolder,
  doCreateDrafts,
  doCreateProfileField,
  doCreateReminder,
  doCreateSavedSnippet,
  doCreateScheduledMessage,
  doCreateUser,
  doCreateUserGroup,
  doDeleteMessage,
  doInviteUsers,
  doMuteUser,
  doRegisterClientDevice,
  doSendEditTyping,
  doSendMessage,
  doSendSubmessage,
  doSendTyping,
  doUpdateMessage,
  doUpdateMessageFlags,
  doUpdateOwnStatus,
  doUpdatePresence,
  doUpdateRealm,
  doUpdateRealmUserDefaults,
  doUpdateSettings,
  doUpdateUser,
  doUpdateUserTopic,
  doUploadFile,
  EVENT_TYPES,
  doRegister,
  getEvents,
  getMessages,
  type PublishedEvent,
  type QueueOptions,
  systemGroupId,
  type Tailoring,
} from '@teamchat/core/internal';
import { describe, expect, it } from 'vitest';
import { eventForQueue, type QueueView } from '../../packages/core/src/events/rules.js';
import { makeWorld, must } from '../helpers/core.js';
import { imageFile, png } from './image-fixtures.js';

const SENDER_QUEUE = 'queue-of-the-sender';

/** Runs one action of each area and returns everything it published, in order. */
async function publishEveryType(): Promise<PublishedEvent[]> {
  const w = await makeWorld();
  const published: PublishedEvent[] = [];
  w.ctx.events.subscribe((p) => published.push(p));
  const { owner } = w;
  const member = await w.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
  const other = await w.addUser({ email: 'otto@example.com', fullName: 'Otto Other' });
  // Not subscribed: gets new channel messages only on all_public_streams queues.
  await w.addUser({ email: 'nora@example.com', fullName: 'Nora Nonmember' });
  // Restricted below: told of a new user it may not access by a placeholder, unless user_list_incomplete.
  await w.addUser({ email: 'gus@example.com', fullName: 'Gus Guest', role: 600 });
  const as = w.as;
  const now = Math.trunc(Date.now() / 1000);

  const { id: general } = must(await doCreateChannel(w.ctx, as(owner), { name: 'general', description: '', subscribers: [owner.id, member.id, other.id] }));
  // The empty topic, so that every topic rule has something to change; local echo for the sender's queue.
  const send = { type: 'stream', to: 'general', topic: '', content: 'hi @**Olivia Owner**', queue_id: SENDER_QUEUE, local_id: '7' };
  const { id: message } = must(await doSendMessage.fromTransport(w.ctx, as(member), send));
  const { id: doomed } = must(await doSendMessage.fromTransport(w.ctx, as(member), { ...send, content: 'doomed' }));
  must(await doSendMessage(w.ctx, as(member), { type: 'private', to: JSON.stringify([other.id]), content: 'psst' }));
  must(await doUpdateMessage(w.ctx, as(member), { message_id: message, content: 'edited' }));
  must(await doUpdateMessageFlags(w.ctx, as(owner), { messages: [message], op: 'add', flag: 'read' }));
  must(await doUpdateMessageFlags(w.ctx, as(owner), { messages: [message], op: 'remove', flag: 'read' }));
  must(await doAddReaction(w.ctx, as(owner), { message_id: message, emoji_name: 'smile' }));
  const poll = '{"widget_type": "poll", "extra_data": {"question": "Lunch?", "options": ["Pizza", "Soup"]}}';
  must(await doSendSubmessage(w.ctx, as(member), { message_id: message, msg_type: 'widget', content: poll }));
  must(await doSendTyping(w.ctx, as(member), { type: 'stream', op: 'start', stream_id: general, topic: '' }));
  must(await doSendTyping(w.ctx, as(member), { op: 'start', to: [other.id] }));
  must(await doSendEditTyping(w.ctx, as(member), { message_id: message, op: 'start' }));
  must(await doUpdateUserTopic(w.ctx, as(member), { stream_id: general, topic: '', visibility_policy: 1 }));
  must(await doDeleteMessage(w.ctx, as(owner), { message_id: doomed }));

  must(await doCreateDrafts(w.ctx, as(member), { drafts: [{ type: 'private', to: [other.id], topic: '', content: 'x' }] }));
  const later = String(now + 3600);
  must(await doCreateScheduledMessage.fromTransport(w.ctx, as(member), { type: 'channel', to: String(general), topic: 'later', content: 'Hi', scheduled_delivery_timestamp: later }));
  must(await doCreateReminder.fromTransport(w.ctx, as(member), { message_id: String(message), scheduled_delivery_timestamp: later }));
  must(await doCreateSavedSnippet(w.ctx, as(member), { title: 'Hello', content: 'Welcome' }));
  must(await doAddNavigationView(w.ctx, as(member), { fragment: 'inbox', is_pinned: false }));
  must(await doAddAlertWords(w.ctx, as(member), { alert_words: ["lunch"] }));
  must(await doMuteUser(w.ctx, as(member), { muted_user_id: other.id }));
  must(await doRegisterClientDevice(w.ctx, as(member), {}));
  must(await doUploadFile(w.ctx, as(member), { file: { filename: 'notes.txt', contentType: 'text/plain', bytes: new TextEncoder().encode('notes') } }));
  must(await doUpdateSettings(w.ctx, as(member), { enable_stream_desktop_notifications: true }));
  announceVideoProviderToken(w.ctx, member, true);

  must(await doUpdateRealm(w.ctx, as(owner), { can_access_all_users_group: { new: systemGroupId('role:members') } }));
  must(await doCreateUser(w.ctx, as(owner), { email: 'newbie@example.com', password: 'newbie-password', full_name: 'Nia Newbie' }));
  must(await doUpdateUser(w.ctx, as(owner), { user_id: other.id, full_name: 'Otto Renamed' }));
  must(await doCreateBot(w.ctx, as(member), { full_name: 'Helper Bot', short_name: 'helper' }));
  must(await doUpdateOwnStatus(w.ctx, as(member), { status_text: 'lunch' }));
  must(await doUpdatePresence(w.ctx, as(other), { status: 'active' }));
  must(await doCreateUserGroup(w.ctx, as(owner), { name: 'team', description: '', members: [member.id] }));
  must(await doCreateProfileField(w.ctx, as(owner), { name: 'Phone', field_type: 1 }));
  must(await doInviteUsers(w.ctx, as(owner), { invitee_emails: 'x@example.com', stream_ids: [], invite_expires_in_minutes: null, invite_as: 100 }));

  const { id: doomedChannel } = must(await doCreateChannel(w.ctx, as(owner), { name: 'old', description: '', subscribers: [member.id] }));
  must(await doArchiveStream(w.ctx, as(owner), { stream_id: doomedChannel }));
  must(await doAddDefaultStream(w.ctx, as(owner), { stream_id: general }));
  must(await doCreateChannelFolder(w.ctx, as(owner), { name: 'Frontend', description: '' }));
  must(await doUpdateRealm(w.ctx, as(owner), { avatar_changes_disabled: true }));
  must(await doUpdateRealmUserDefaults(w.ctx, as(owner), { enter_sends: true }));
  must(await doAddRealmDomain(w.ctx, as(owner), { domain: 'example.com', allow_subdomains: false }));
  must(await doAddRealmEmoji.fromTransport(w.ctx, as(owner), { emoji_name: 'blob', file: imageFile(png(16, 16)) }));
  must(await doAddLinkifier(w.ctx, as(owner), { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example.com/{id}' }));
  must(await doAddPlayground(w.ctx, as(owner), { name: 'Python', pygments_language: 'python', url_template: 'https://python.example.com/?code={code}' }));
  await w.ctx.queues.delivered();
  return published;
}

function options(capabilities: Iterable<ClientCapability>, overrides: Partial<QueueOptions> = {}): QueueOptions {
  return {
    eventTypes: null,
    narrow: [],
    capabilities: new Set(capabilities),
    clientGravatar: false,
    applyMarkdown: true,
    allPublicStreams: false,
    idleTimeoutSecs: 600,
    ...overrides,
  };
}

/**
 * Queues of every option delivery reads: no capability, each capability alone, all of them;
 * each with client_gravatar and apply_markdown on and off, all_public_streams, event_types
 * naming user_topic, a narrow; the sender's queue (local echo) and another.
 */
function queueVariety(): QueueView[] {
  const sets: ClientCapability[][] = [[], ...CLIENT_CAPABILITIES.map((c) => [c]), [...CLIENT_CAPABILITIES]];
  const queues: QueueView[] = [];
  for (const capabilities of sets) {
    for (const clientGravatar of [false, true]) {
      for (const applyMarkdown of [false, true]) {
        for (const id of [SENDER_QUEUE, 'another-queue']) queues.push({ id, options: options(capabilities, { clientGravatar, applyMarkdown }) });
      }
    }
    queues.push({ id: 'public', options: options(capabilities, { allPublicStreams: true }) });
    queues.push({ id: 'topics', options: options(capabilities, { eventTypes: new Set(['user_topic', 'muted_topics']) }) });
    queues.push({ id: 'narrowed', options: options(capabilities, { narrow: [['channel', 'general']] }) });
  }
  return queues;
}

describe('the event union as data', () => {
  it('every event type round-trips through JSON and is delivered identically from the copy', async () => {
    const published = await publishEveryType();
    // Heartbeats are made by the queues themselves, never published.
    const covered = new Set(published.map((p) => p.event.type));
    expect([...covered].sort()).toEqual(EVENT_TYPES.filter((type) => type !== 'heartbeat'));
    // Every kind of tailoring is among them.
    const kinds = new Set(published.flatMap((p) => Object.keys(p.tailoring ?? {})));
    const every: Array<keyof Tailoring> = ['onlyIf', 'allPublicStreamsOnly', 'byCapability', 'clientGravatar', 'messageFields', 'localEcho'];
    expect([...kinds].sort()).toEqual(every.sort());

    const queues = queueVariety();
    let delivered = 0;
    for (const original of published) {
      const text = JSON.stringify(original);
      const copy = JSON.parse(text) as PublishedEvent;
      expect(copy).toEqual(original);
      for (const queue of queues) {
        const fromOriginal = eventForQueue(queue, original);
        expect(eventForQueue(queue, copy), `${original.event.type} to ${queue.id}`).toEqual(fromOriginal);
        if (fromOriginal) delivered++;
      }
      // Delivery never changes the published event.
      expect(JSON.stringify(original)).toBe(text);
    }
    expect(delivered).toBeGreaterThan(published.length);
  });

  it('queues that get the same variant of an event get the same object', async () => {
    const published = await publishEveryType();
    const messages = published.filter((p) => p.event.type === 'message' && p.tailoring?.localEcho);
    expect(messages.length).toBeGreaterThan(0);
    for (const p of messages) {
      const plain = (id: string) => eventForQueue({ id, options: options([]) }, p);
      const raw = (id: string) => eventForQueue({ id, options: options(['empty_topic_name'], { applyMarkdown: false, clientGravatar: true }) }, p);
      // The published event itself for default options; one shared object per variant otherwise.
      expect(plain('a')).toBe(p.event);
      expect(raw('a')).toBe(raw('b'));
      expect(raw('a')).not.toBe(plain('a'));
      // The sender's queue gets its own copy, with local_message_id.
      expect(plain(SENDER_QUEUE)).toMatchObject({ local_message_id: '7' });
      expect(plain('a')).not.toHaveProperty('local_message_id');
    }
    const emoji = published.find((p) => p.event.type === 'realm_emoji')!;
    const individual = (id: string) => eventForQueue({ id, options: options(['individual_emoji_changes']) }, emoji);
    expect(individual('a')).toBe(individual('b'));
    expect(individual('a')).toMatchObject({ type: 'realm_emoji', op: 'add' });
    expect(eventForQueue({ id: 'a', options: options([]) }, emoji)).toMatchObject({ type: 'realm_emoji', op: 'update' });
  });

  it('a message event carries, for every apply_markdown, client_gravatar and empty_topic_name, the record GET /messages gives', async () => {
    const w = await makeWorld();
    const member = await w.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
    must(await doCreateChannel(w.ctx, w.as(w.owner), { name: 'general', description: '', subscribers: [w.owner.id, member.id] }));
    const combos = [false, true].flatMap((markdown) => [false, true].flatMap((gravatar) => [false, true].map((empty) => ({ markdown, gravatar, empty }))));
    const queues = [];
    for (const c of combos) {
      const params = { event_types: '["message"]', apply_markdown: String(c.markdown), client_gravatar: String(c.gravatar), client_capabilities: JSON.stringify({ empty_topic_name: c.empty }) };
      queues.push({ ...c, queueId: (must(await doRegister.fromTransport(w.ctx, w.as(w.owner), params)) as { queue_id: string }).queue_id });
    }
    const { id } = must(await doSendMessage(w.ctx, w.as(member), { type: 'stream', to: 'general', topic: '', content: '**hi**' }));
    await w.ctx.queues.delivered();
    for (const q of queues) {
      const { events } = must(await getEvents(w.ctx, w.as(w.owner), { queue_id: q.queueId, dont_block: true }));
      const fetchParams = { message_ids: `[${id}]`, apply_markdown: String(q.markdown), client_gravatar: String(q.gravatar), allow_empty_topic_name: String(q.empty) };
      const page = must(await getMessages.fromTransport(w.ctx, w.as(w.owner), fetchParams));
      const { flags: _flags, ...fetched } = page.messages[0]!;
      expect(events.map((e) => (e.type === 'message' ? e.message : e)), JSON.stringify(q)).toEqual([fetched]);
    }
  });
});
