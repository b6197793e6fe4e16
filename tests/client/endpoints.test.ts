/**
 * The client's methods against a real server: the success shapes of a representative set of
 * endpoints across areas (users, channels, messages, reactions, uploads, file routes), typed
 * without casts.
 */
import { createClient } from '@teamchat/client';
import { afterEach, describe, expect, it } from 'vitest';
import { closeServers } from '../helpers/http.js';
import { clientWorld } from './helpers.js';

afterEach(closeServers);

describe('@teamchat/client endpoints', () => {
  it('server settings without credentials, and a password login that gives an API key for a client', async () => {
    const { server, world } = await clientWorld();
    const anonymous = createClient({ url: server.url });
    const settings = await anonymous.getServerSettings();
    expect(settings).toMatchObject({ result: 'success', msg: '', zulip_feature_level: 512 });

    const login = await anonymous.fetchApiKey('owner@example.com', 'owner-password');
    expect(login).toMatchObject({ result: 'success', email: 'owner@example.com', user_id: world.owner.id, api_key: world.owner.apiKey });
    const me = await createClient({ url: server.url, email: login.email, apiKey: login.api_key }).getOwnUser();
    expect(me).toMatchObject({ user_id: world.owner.id, full_name: 'Olivia Owner', email: 'owner@example.com' });
  });

  it('users: the list, one user by ID (number or text) and by email', async () => {
    const { owner, member } = await clientWorld();
    const users = await owner.getUsers();
    expect(users.members.map((u) => u.user_id)).toContain(member.id);
    const byId = await owner.getUser({ user_id: member.id });
    expect(byId.user).toMatchObject({ user_id: member.id, full_name: 'Mel Member' });
    const byEmail = await owner.getUser({ user_id: 'mel@example.com' });
    expect(byEmail.user.user_id).toBe(member.id);
  });

  it('channels: create, subscribe, list subscriptions, look up an ID, and a member’s subscription status', async () => {
    const { owner, mel, member } = await clientWorld();
    const created = await owner.createChannel({ name: 'design', subscribers: [member.id] });
    const { stream_id: streamId } = await owner.getStreamId({ stream: 'design' });
    expect(created).toMatchObject({ result: 'success', id: streamId });

    const subscribed = await owner.subscribe({ subscriptions: [{ name: 'design' }] });
    expect(subscribed).toMatchObject({ result: 'success', subscribed: { '1': ['design'] } });
    const subs = await mel.getSubscriptions();
    expect(subs.subscriptions.map((s) => s.name)).toContain('design');
    const status = await owner.getSubscriptionStatus({ user_id: member.id, stream_id: streamId });
    expect(status).toMatchObject({ result: 'success', is_subscribed: true });
    const streams = await mel.getStreams();
    expect(streams.streams.map((s) => s.name)).toContain('design');
  });

  it('messages: send to a channel topic and a direct message, fetch with a narrow, edit, read one back', async () => {
    const { owner, mel, member } = await clientWorld();
    await owner.createChannel({ name: 'general', subscribers: [member.id] });
    const sent = await mel.sendMessage({ type: 'stream', to: 'general', topic: 'lunch', content: 'Pizza at **noon**?' });
    expect(sent).toMatchObject({ result: 'success', msg: '', id: expect.any(Number), message_url: expect.stringContaining('/topic/lunch/') });
    const direct = await mel.sendMessage({ type: 'direct', to: JSON.stringify([1]), content: 'psst' });

    const found = await owner.getMessages({ anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: 'lunch' }] });
    expect(found.messages.map((m) => m.id)).toEqual([sent.id]);
    expect(found.messages[0]).toMatchObject({ content: '<p>Pizza at <strong>noon</strong>?</p>', subject: 'lunch', display_recipient: 'general' });

    await mel.updateMessage({ message_id: sent.id, content: 'Pizza at one?' });
    const one = await owner.getMessage({ message_id: sent.id, apply_markdown: false });
    expect(one.message).toMatchObject({ id: sent.id, content: 'Pizza at one?' });
    const dm = await owner.getMessage({ message_id: direct.id });
    expect(dm.message).toMatchObject({ type: 'private', content: '<p>psst</p>' });
  });

  it('reactions: add and remove an emoji reaction, seen on the message', async () => {
    const { owner, mel } = await clientWorld();
    const { id } = await mel.sendMessage({ type: 'direct', to: 'owner@example.com', content: 'lunch?' });
    await expect(owner.addReaction({ message_id: id, emoji_name: 'octopus' })).resolves.toMatchObject({ result: 'success' });
    const withReaction = await mel.getMessage({ message_id: id });
    expect(withReaction.message.reactions).toMatchObject([{ emoji_name: 'octopus', user_id: 1 }]);
    await owner.removeReaction({ message_id: id, emoji_name: 'octopus' });
    expect((await mel.getMessage({ message_id: id })).message.reactions).toEqual([]);
  });

  it('uploads: a file as multipart, downloaded by its URL and through the generated file route, then listed', async () => {
    const { mel, member } = await clientWorld();
    const file = new File(['hello, files'], 'notes.txt', { type: 'text/plain' });
    const uploaded = await mel.uploadFile({}, { files: file });
    expect(uploaded).toMatchObject({ result: 'success', filename: 'notes.txt', url: expect.stringMatching(/^\/user_uploads\/\d+\/.+\/notes\.txt$/) });

    const byUrl = await mel.fetchFile(uploaded.url);
    expect(await byUrl.text()).toBe('hello, files');
    const [, realmId, ...rest] = uploaded.url.split('/').filter(Boolean);
    const byRoute = await mel.getUploadedFile({ realm_id: realmId!, filename: rest.join('/') });
    expect(byRoute.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await byRoute.text()).toBe('hello, files');

    const temporary = await mel.getFileTemporaryUrl({ realm_id: realmId!, filename: rest.join('/') });
    expect(temporary.url).toMatch(/^\/user_uploads\/temporary\//);

    await mel.sendMessage({ type: 'direct', to: String(member.id), content: `[notes](${uploaded.url})` });
    const attachments = await mel.getAttachments();
    expect(attachments.attachments).toMatchObject([{ name: 'notes.txt', size: 12 }]);
  });

  it('an avatar upload, the avatar redirect route (not followed) and the avatar file route', async () => {
    const { mel, member } = await clientWorld();
    // A 1×1 PNG.
    const png = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));
    const avatar = await mel.uploadAvatar({}, { files: new File([png], 'me.png', { type: 'image/png' }) });
    const path = new URL(avatar.avatar_url).pathname;
    expect(path).toMatch(/^\/user_avatars\/\d+\/[0-9a-f]+\.png$/);
    const redirected = await mel.getAvatarRedirect({ user_id_or_email: member.id });
    expect(redirected.status).toBe(302);
    expect(new URL(redirected.headers.get('location')!).pathname).toBe(path);
    const [, , realmId, file] = path.split('/');
    const image = await mel.getAvatarImage({ realm_id: realmId!, file: file! });
    expect(image.headers.get('content-type')).toBe('image/png');
  });
});
