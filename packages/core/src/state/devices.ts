import { formatDevice } from '../push/device-fields.js';
import { defineSection } from './sections.js';

/**
 * The `devices` field (FL 468), fetched for the `device` event type: the user's logged-in
 * devices by ID with their push registration; none for a spectator.
 */
export const deviceSection = defineSection({
  key: 'device',
  async fetch(_ctx, tx, { realm, user }) {
    const devices = user ? await tx.push.devicesOf(realm.id, [user.id]) : [];
    return { devices: Object.fromEntries(devices.map((d) => [String(d.id), formatDevice(d)])) };
  },
});
