/**
 * The channel sections of the register snapshot (SHAPES.md 2.4, 2.8): `subscription`
 * (subscriptions, unsubscribed, never_subscribed), `stream` (streams) and `default_streams`
 * (realm_default_streams). Archived channels appear only for clients with `archived_channels`.
 */
import { hasMetadataAccess } from '../access/channel-rules.js';
import { isGuest } from '../access/roles.js';
import { withNotificationDefaults } from '../format/channel.js';
import { formatStreams, gatherSubscriptions, spectatorSubscriptions, webPublicChannels } from '../queries/channel-lists.js';
import { defineSection } from './sections.js';

export const subscriptionSection = defineSection({
  key: 'subscription',
  eventTypes: ['subscription', 'stream'],
  async fetch(_ctx, tx, { realm, user: caller }, options) {
    if (!caller) return { ...(await spectatorSubscriptions(tx, realm)) };
    // Read in the snapshot: settings changed since authentication decide the inherited values.
    const user = (await tx.users.byId(realm.id, caller.id)) ?? caller;
    const lists = await gatherSubscriptions(tx, realm, user, {
      includeSubscribers: options.includeSubscribers,
      includeArchived: options.capabilities.has('archived_channels'),
    });
    if (!options.capabilities.has('notification_settings_null')) {
      lists.subscriptions = lists.subscriptions.map((sub) => withNotificationDefaults(user, sub));
      lists.unsubscribed = lists.unsubscribed.map((sub) => withNotificationDefaults(user, sub));
    }
    return { ...lists };
  },
});

export const streamSection = defineSection({
  key: 'stream',
  async fetch(_ctx, tx, { realm, user: caller }, options) {
    if (!caller) return { streams: await formatStreams(tx, realm, await webPublicChannels(tx, realm)) };
    const user = (await tx.users.byId(realm.id, caller.id)) ?? caller;
    const subscribed = new Set((await tx.subscriptions.forUser(realm.id, user.id)).filter((r) => r.active).map((r) => r.streamId));
    const archived = options.capabilities.has('archived_channels');
    const streams = (await tx.streams.list(realm.id)).filter(
      (s) => (archived || !s.isArchived) && hasMetadataAccess(user, s, subscribed.has(s.id)),
    );
    return { streams: await formatStreams(tx, realm, streams) };
  },
});

export const defaultStreamsSection = defineSection({
  key: 'default_streams',
  async fetch(_ctx, tx, { realm, user }) {
    if (!user || isGuest(user)) return { realm_default_streams: [] };
    return { realm_default_streams: await tx.defaultStreams.list(realm.id) };
  },
});
