/**
 * Realm settings: defaults for realms that never changed them, stored values where they did,
 * and the permission check over a realm group setting (guests never in a members-only setting).
 */
import { doRegister, hasRealmPermission, systemGroupId } from '@teamchat/core/internal';
import { describe, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';

describe('realm settings', () => {
  it('register carries every realm setting, defaults as the reference ships them', async () => {
    const w = await makeWorld({ config: { timers: false } });
    const state = must(await doRegister(w.ctx, w.as(w.owner), { fetch_event_types: ['realm'] }));
    expect(state.realm_can_invite_users_group).toBe(systemGroupId('role:members'));
    expect(state.realm_create_multiuse_invite_group).toBe(systemGroupId('role:administrators'));
    expect(state.realm_can_access_all_users_group).toBe(systemGroupId('role:everyone'));
    expect(state.realm_new_stream_announcements_stream_id).toBe(-1);
    expect(state.realm_welcome_message_custom_text).toBe('');
  });

  it('hasRealmPermission follows the stored value and never lets a guest into a members setting', () => {
    const realm = { settings: { can_invite_users_group: { direct_members: [7], direct_subgroups: ['role:administrators'] } } };
    expect(hasRealmPermission({ id: 7, role: 400 }, realm, 'can_invite_users_group')).toBe(true);
    expect(hasRealmPermission({ id: 8, role: 400 }, realm, 'can_invite_users_group')).toBe(false);
    expect(hasRealmPermission({ id: 9, role: 200 }, realm, 'can_invite_users_group')).toBe(true);
    expect(hasRealmPermission({ id: 7, role: 600 }, realm, 'can_invite_users_group')).toBe(false);
    expect(hasRealmPermission({ id: 7, role: 600 }, { settings: {} }, 'can_invite_users_group')).toBe(false);
    expect(hasRealmPermission({ id: 7, role: 600 }, { settings: {} }, 'direct_message_permission_group')).toBe(true);
  });
});
