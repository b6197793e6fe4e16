/** Shared pieces of the custom profile field tests. */
import { type ApiProfileField, doCreateProfileField, doUpdateOwnProfileData, getProfileFields, type User } from '@teamchat/core';
import { must, type World } from '../helpers/core.js';

/** Creates a field as the realm's owner and returns its ID. */
export async function addField(w: World, name: string, fieldType: number, extra: Record<string, unknown> = {}): Promise<number> {
  return must(await doCreateProfileField(w.ctx, w.as(w.owner), { name, hint: '', field_type: fieldType, ...extra })).id;
}

/** The realm's fields as GET /realm/profile_fields gives them. */
export async function fields(w: World, user: User = w.owner): Promise<ApiProfileField[]> {
  return must(await getProfileFields(w.ctx, w.as(user), {})).custom_fields;
}

/** Sets the user's own values (form text, as over HTTP). */
export async function setOwn(w: World, user: User, data: { id: number; value: unknown }[]) {
  return doUpdateOwnProfileData.fromTransport(w.ctx, w.as(user), { data: data });
}

export const CHOICES = { vim: { text: 'Vim', order: '1' }, emacs: { text: 'Emacs', order: '2' } };
