import type { Role, User } from '../storage/types.js';

/** Administrators are owners (100) and administrators (200); moderators are not. */
export const isAdmin = (user: Pick<User, 'role'>) => user.role <= 200;
export const isOwner = (user: Pick<User, 'role'>) => user.role === 100;
export const isGuest = (user: Pick<User, 'role'>) => user.role === 600;
/** "At least moderator" (FL 380 meaning of is_moderator). */
export const isModeratorOrAbove = (user: Pick<User, 'role'>) => user.role <= 300;
export const roleAtLeast = (user: Pick<User, 'role'>, role: Role) => user.role <= role;
