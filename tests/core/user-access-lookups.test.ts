/**
 * can_access_all_users_group where a restricted guest names another user (zerver/lib/users.py
 * access_user_common, check_sender_can_access_recipients): direct-message recipients (sent and
 * scheduled), subscription principals, and user lookups by ID. Typing notifications, drafts and
 * user-group membership changes name users without this check, as in the reference.
 */
import {
  doCreateDrafts,
  doCreateScheduledMessage,
  doDeactivateUser,
  doSendMessage,
  doSendTyping,
  doUnsubscribe,
  getIsUserGroupMember,
  systemGroupId,
} from '@teamchat/core/internal';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { expectBadRequest } from './fixtures.js';
import { accessWorld, as, setAccessGroup } from './user-access-helpers.js';

const NO_ACCESS = 'You do not have permission to access some of the recipients.';
const dm = (to: unknown) => ({ type: 'private', to: JSON.stringify(to), content: 'hi' });

describe('direct messages from a restricted guest', () => {
  it('refuses a recipient the guest may not access, alone or in a group, by ID', async () => {
    const a = await accessWorld();
    await setAccessGroup(a.w, 'role:members');
    const caller = await as(a.w, a.guest);
    expectBadRequest(await doSendMessage.fromTransport(a.w.ctx, caller, dm([a.stranger.id])), NO_ACCESS);
    expectBadRequest(await doSendMessage.fromTransport(a.w.ctx, caller, dm([a.channelmate.id, a.stranger.id])), NO_ACCESS);
    // Unknown users keep their own error.
    expectBadRequest(await doSendMessage.fromTransport(a.w.ctx, caller, dm([999_999])), 'Invalid user ID 999999');
  });

  it('sends to accessible users: channelmates, correspondents, bots and themselves', async () => {
    const a = await accessWorld();
    await setAccessGroup(a.w, 'role:members');
    const caller = await as(a.w, a.guest);
    for (const to of [[a.channelmate.id], [a.correspondent.id, a.channelmate.id], [a.bot.id], [a.guest.id]]) {
      must(await doSendMessage.fromTransport(a.w.ctx, caller, dm(to)));
    }
  });

  it('lets the guest reach anyone while the setting is role:everyone, and members are never restricted', async () => {
    const a = await accessWorld();
    must(await doSendMessage.fromTransport(a.w.ctx, await as(a.w, a.guest), dm([a.stranger.id])));
    await setAccessGroup(a.w, 'role:members');
    must(await doSendMessage.fromTransport(a.w.ctx, await as(a.w, a.channelmate), dm([a.stranger.id])));
  });

  it('checks access before deactivation, as the reference', async () => {
    const a = await accessWorld();
    await setAccessGroup(a.w, 'role:members');
    must(await doDeactivateUser(a.w.ctx, await as(a.w, a.w.owner), { user_id: a.stranger.id }));
    expectBadRequest(await doSendMessage.fromTransport(a.w.ctx, await as(a.w, a.guest), dm([a.stranger.id])), NO_ACCESS);
  });

  it('refuses a scheduled direct message to an inaccessible user', async () => {
    const a = await accessWorld();
    await setAccessGroup(a.w, 'role:members');
    const when = String(Math.floor(a.w.ctx.clock.now() / 1000) + 3600);
    const params = (to: number) => ({ ...dm([to]), type: 'direct', scheduled_delivery_timestamp: when });
    expectBadRequest(await doCreateScheduledMessage.fromTransport(a.w.ctx, await as(a.w, a.guest), params(a.stranger.id)), NO_ACCESS);
    must(await doCreateScheduledMessage.fromTransport(a.w.ctx, await as(a.w, a.guest), params(a.correspondent.id)));
  });

  it('does not check typing notifications or drafts, as the reference', async () => {
    const a = await accessWorld();
    await setAccessGroup(a.w, 'role:members');
    const caller = await as(a.w, a.guest);
    must(await doSendTyping(a.w.ctx, caller, { op: 'start', to: [a.stranger.id] }));
    const draft = { type: 'private', to: [a.stranger.id], topic: '', content: 'later' };
    must(await doCreateDrafts.fromTransport(a.w.ctx, caller, { drafts: [draft] }));
  });
});

describe('subscription principals named by a restricted guest', () => {
  // A guest may never subscribe others ("Not allowed for guest users" comes first), so only
  // unsubscribing, which resolves principals before any permission check, reaches the access check.
  it('answers "Insufficient permission" on unsubscribe for an inaccessible principal, "No such user" for an unknown one', async () => {
    const a = await accessWorld();
    await setAccessGroup(a.w, 'role:members');
    const caller = await as(a.w, a.guest);
    const unsubscribe = (principals: unknown[]) => doUnsubscribe.fromTransport(a.w.ctx, caller, { subscriptions: ["garden"], principals: principals });
    expectBadRequest(await unsubscribe([a.stranger.id]), 'Insufficient permission');
    expectBadRequest(await unsubscribe([a.guest.id, a.stranger.id]), 'Insufficient permission');
    expectBadRequest(await unsubscribe([999_999]), 'No such user');
    // Naming only accessible users gets past the access check to the channel and permission checks.
    must(await unsubscribe([a.guest.id]));
  });
});

describe('user lookups by ID', () => {
  it('GET /user_groups/{id}/members/{user_id}: "Insufficient permission" for an inaccessible user', async () => {
    const a = await accessWorld();
    await setAccessGroup(a.w, 'role:members');
    const caller = await as(a.w, a.guest);
    const members = systemGroupId('role:members');
    const ask = (user_id: number) => getIsUserGroupMember(a.w.ctx, caller, { user_group_id: members, user_id });
    expectBadRequest(await ask(a.stranger.id), 'Insufficient permission');
    expect(must(await ask(a.channelmate.id))).toEqual({ is_user_group_member: true });
    await setAccessGroup(a.w, 'role:everyone');
    expect(must(await getIsUserGroupMember(a.w.ctx, await as(a.w, a.guest), { user_group_id: members, user_id: a.stranger.id }))).toEqual({
      is_user_group_member: true,
    });
  });
});
