import type { Ctx } from '../context.js';

/**
 * Whether this server delivers push notifications (the reference's push_notifications_enabled):
 * the operator says so in the config, or a notifier is plugged in.
 */
export function pushNotificationsEnabled(ctx: Ctx): boolean {
  return ctx.config.pushNotificationsEnabled || Boolean(ctx.pushNotifier);
}
