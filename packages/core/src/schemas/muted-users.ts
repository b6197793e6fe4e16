/** Input of POST and DELETE /users/me/muted_users/{muted_user_id}. */
import { type } from './known-structs.js';
import { PathInt } from './wire.js';

export const MuteUserParams = type({ muted_user_id: PathInt });
