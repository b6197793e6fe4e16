/**
 * PATCH /realm (the reference's update_realm): administrators change the realm's settings,
 * owners the few the reference keeps to owners. Everything is validated before anything is
 * written; the changes are written in one transaction, and each changed setting is announced
 * to the realm's users as realm/update_dict after commit (SHAPES.md 4.21).
 */
import { err, ok, type Result } from 'neverthrow';
import { loadGroupDirectory } from '../access/group-membership.js';
import { isAdmin, isOwner } from '../access/roles.js';
import { groupSettingForApi } from '../access/system-groups.js';
import { type ApiError, badRequest, mustBeAdmin, mustBeOwner } from '../errors.js';
import { type Actor, userOperation } from '../operation.js';
import { groupSettingChanges, resolveGroupSetting } from '../schemas/group-setting.js';
import { UpdateRealmParams, type UpdateRealmInput } from '../schemas/realm.js';
import { LANGUAGES } from '../settings/choices.js';
import { REALM_GROUP_PERMISSIONS } from '../settings/realm-group-permissions.js';
import { REALM_GROUP_SETTING_DEFAULTS, realmGroupSetting, type RealmGroupSettingName } from '../settings/realm-settings.js';
import type { Tx } from '../storage/types.js';
import { announceRealmUpdate, planPlainSettings, type RealmChangePlan } from '../realm/setting-changes.js';
import { transactionAs } from '../transaction.js';

const GROUP_SETTINGS = Object.keys(REALM_GROUP_SETTING_DEFAULTS) as RealmGroupSettingName[];

/** Settings only owners may change (update_realm's OrganizationOwnerRequiredError). */
const OWNER_ONLY: readonly (keyof UpdateRealmInput)[] = [
  'create_multiuse_invite_group',
  'can_create_groups',
  'can_invite_users_group',
  'can_manage_all_groups',
  'can_manage_billing_group',
  'waiting_period_threshold',
];

/** Video call providers a realm may choose: none (0) and the built-in Jitsi-style provider (1). */
const VIDEO_CHAT_PROVIDERS = [0, 1];

/** Checks update_realm makes before changing anything. */
function checkRequest(actor: Actor, params: UpdateRealmInput): Result<void, ApiError> {
  if (!isAdmin(actor.user)) return err(mustBeAdmin());
  if (params.default_language !== undefined && !(params.default_language in LANGUAGES)) {
    return err(badRequest(`Invalid language '${params.default_language}'`));
  }
  if (params.video_chat_provider !== undefined && !VIDEO_CHAT_PROVIDERS.includes(params.video_chat_provider)) {
    return err(badRequest(`Invalid video_chat_provider ${params.video_chat_provider}`));
  }
  if (!isOwner(actor.user) && OWNER_ONLY.some((name) => params[name] !== undefined)) return err(mustBeOwner());
  return ok(undefined);
}

/** The group settings the request changes, validated, added to `plan`. */
async function planGroupSettings(tx: Tx, actor: Actor, params: UpdateRealmInput, plan: RealmChangePlan): Promise<Result<void, ApiError>> {
  const requested = GROUP_SETTINGS.filter((name) => params[name] !== undefined);
  if (requested.length === 0) return ok(undefined);
  const directory = await loadGroupDirectory(tx, actor.realm.id);
  for (const name of requested) {
    const change = params[name]!;
    const changes = groupSettingChanges(realmGroupSetting(actor.realm, name), change);
    if (changes.isErr()) return err(changes.error);
    if (!changes.value) continue;
    const stored = resolveGroupSetting(name, change.new, REALM_GROUP_PERMISSIONS[name], directory);
    if (stored.isErr()) return err(stored.error);
    plan.setSetting(name, stored.value, REALM_GROUP_SETTING_DEFAULTS[name]);
    plan.announce({ [name]: groupSettingForApi(stored.value) });
  }
  return ok(undefined);
}

/** PATCH /realm: returns the changed settings as update_realm does (text settings as "updated"). */
export const doUpdateRealm = userOperation(UpdateRealmParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, actor) => {
    const checked = checkRequest(actor, params);
    if (checked.isErr()) return err(checked.error);
    const plan = await planPlainSettings(tx, actor, params, new Date(ctx.clock.now()));
    if (plan.isErr()) return err(plan.error);
    const groups = await planGroupSettings(tx, actor, params, plan.value);
    if (groups.isErr()) return err(groups.error);
    await plan.value.write(tx, actor.realm);
    await announceRealmUpdate(ctx, tx, actor.realm, plan.value.events);
    return ok(plan.value.response);
  }),
);
