/**
 * A client-side reducer for the register sections the users area keeps current (`realm_user`,
 * `realm_bot`): the test half of the reference's `verify_action` idea. A test fetches a snapshot,
 * runs an action, applies the events its queue received with `applyEvents`, and asserts the
 * result equals a fresh snapshot. The rules follow the reference's `apply_event`
 * (zerver/lib/events.py) where a client has to know something the events do not say.
 */
import type { LooseQueuedEvent as QueuedEvent } from '../helpers/events.js';
import { applyUserGroupEvent, dropDeactivatedMember } from './apply-user-group-events.js';

// biome-ignore lint/suspicious/noExplicitAny: register snapshots are JSON checked field by field.
export type State = Record<string, any>;
type Person = Record<string, unknown> & { user_id: number };

export interface ReducerContext {
  /** The queue's client_gravatar. */
  clientGravatar: boolean;
  /** Whether everyone may see the user's email (so a client_gravatar client computes the avatar). */
  emailPublic(userId: number): boolean;
  /** Whether the realm has the public access option (can_create_web_public_streams). */
  webPublicAccess: boolean;
  /**
   * The realm_bots a fresh fetch gives now. The reference refetches them when the client's own
   * user becomes or stops being an administrator, since no realm_bot event says which bots it
   * gained or lost; this reducer does the same.
   */
  refetchBots(): Promise<unknown[]>;
}

/** The events of removed legacy types (FL 439): they must never be sent. */
export const LEGACY_EVENT_TYPES = ['update_display_settings', 'update_global_notifications'];

const GRAVATAR = 'https://secure.gravatar.com/';

/** Applies `events` to a deep copy of `state` and returns it. */
export async function applyEvents(state: State, events: readonly QueuedEvent[], context: ReducerContext): Promise<State> {
  const next: State = structuredClone(state);
  for (const event of events) {
    if (LEGACY_EVENT_TYPES.includes(event.type)) throw new Error(`legacy event type sent: ${event.type}`);
    // These keep sections this reducer does not cover (and they are fetched only on request).
    if (['heartbeat', 'user_settings', 'typing'].includes(event.type)) continue;
    if (event.type === 'realm_user' && next.realm_user_groups && (event.person as { is_active?: boolean }).is_active === false) {
      dropDeactivatedMember(next.realm_user_groups, (event.person).user_id);
    }
    if (event.type === 'realm_user') await applyRealmUser(next, event, context);
    else if (event.type === 'realm_bot') applyRealmBot(next, event);
    else if (event.type === 'user_group') {
      if (next.realm_user_groups) applyUserGroupEvent(next.realm_user_groups, event);
    }
    else throw new Error(`no reducer for ${event.type}`);
  }
  return next;
}

/** The sections in a comparable order (lists by user ID). */
export function normalized(state: State): State {
  const out = { ...state };
  for (const key of ['realm_users', 'realm_non_active_users', 'realm_bots']) {
    if (Array.isArray(out[key])) out[key] = [...out[key]].sort((a, b) => a.user_id - b.user_id);
  }
  delete out.queue_id;
  delete out.last_event_id;
  return out;
}

async function applyRealmUser(state: State, event: QueuedEvent, context: ReducerContext): Promise<void> {
  const person = structuredClone(event.person) as Person;
  if (event.op === 'add') {
    if (context.clientGravatar && context.emailPublic(person.user_id) && String(person.avatar_url).startsWith(GRAVATAR)) {
      person.avatar_url = null;
    }
    state.realm_users.push(person);
    return;
  }
  if (event.op !== 'update') throw new Error(`unexpected realm_user op ${String(event.op)}`);

  if (person.user_id === state.user_id) await applyOwnUpdate(state, person, context);

  const active: Person[] = state.realm_users;
  const inactive: Person[] = state.realm_non_active_users;
  const record = active.find((p) => p.user_id === person.user_id) ?? inactive.find((p) => p.user_id === person.user_id);
  if (!record) throw new Error(`update for unknown user ${person.user_id}`);
  // Avatar URLs arrive real; a client_gravatar client keeps computing the ones it can.
  if ('avatar_url' in person && context.clientGravatar && context.emailPublic(person.user_id) && String(person.avatar_url).startsWith(GRAVATAR)) {
    person.avatar_url = null;
  }
  for (const key of Object.keys(record)) if (key !== 'user_id' && key in person) record[key] = person[key];
  if ('new_email' in person) record.email = person.new_email;
  if ('role' in person) {
    const role = person.role as number;
    record.is_owner = role === 100;
    record.is_admin = role <= 200;
    record.is_guest = role === 600;
  }
  if ('is_active' in person) {
    const [from, to] = person.is_active ? [inactive, active] : [active, inactive];
    const index = from.indexOf(record);
    if (index >= 0) {
      from.splice(index, 1);
      to.push(record);
    }
  }
}

/** The requester's own keys of the realm_user section. */
async function applyOwnUpdate(state: State, person: Person, context: ReducerContext): Promise<void> {
  for (const key of ['full_name', 'delivery_email', 'avatar_source', 'avatar_url', 'avatar_url_medium']) {
    if (key in person && key in state) state[key] = person[key];
  }
  if ('new_email' in person) state.email = person.new_email;
  if ('role' in person) {
    const role = person.role as number;
    const wasAdmin = state.is_admin;
    state.is_owner = role === 100;
    state.is_admin = role <= 200;
    state.is_moderator = role <= 300;
    state.is_guest = role === 600;
    for (const key of [
      'can_create_streams',
      'can_create_public_streams',
      'can_create_private_streams',
      'can_subscribe_other_users',
      'can_invite_others_to_realm',
    ]) {
      state[key] = role <= 400;
    }
    state.can_create_web_public_streams = role <= 300 && context.webPublicAccess;
    if ('realm_bots' in state && wasAdmin !== state.is_admin) state.realm_bots = await context.refetchBots();
  }
}

function applyRealmBot(state: State, event: QueuedEvent): void {
  const bot = event.bot as Person;
  const bots: Person[] = state.realm_bots;
  if (event.op === 'add') bots.push(structuredClone(bot));
  else if (event.op === 'delete') state.realm_bots = bots.filter((b) => b.user_id !== bot.user_id);
  else if (event.op === 'update') Object.assign(bots.find((b) => b.user_id === bot.user_id) ?? {}, bot);
  else throw new Error(`unexpected realm_bot op ${String(event.op)}`);
}
