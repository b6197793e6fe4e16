import type { Role, User } from '../storage/types.js';

/** The API's role numbers by name (lower is more privileged). */
export const ROLE = { owner: 100, administrator: 200, moderator: 300, member: 400, guest: 600 } as const satisfies Record<string, Role>;

/** Administrators are owners (100) and administrators (200); moderators are not. */
export const isAdmin = (user: Pick<User, 'role'>) => user.role <= ROLE.administrator;
export const isOwner = (user: Pick<User, 'role'>) => user.role === ROLE.owner;
export const isGuest = (user: Pick<User, 'role'>) => user.role === ROLE.guest;
/** "At least moderator" (FL 380 meaning of is_moderator). */
export const isModeratorOrAbove = (user: Pick<User, 'role'>) => user.role <= ROLE.moderator;
export const roleAtLeast = (user: Pick<User, 'role'>, role: Role) => user.role <= role;
