/**
 * Code playgrounds (the reference's views/realm_playgrounds.py): administrators add and remove
 * the sites a code block of a language can be opened in; each change sends `realm_playgrounds`
 * with the whole list, after commit, to every active user of the realm.
 */
import { err, ok, type Result } from 'neverthrow';
import { isAdmin } from '../access/roles.js';
import type { Ctx } from '../context.js';
import { type ApiError, badRequest, mustBeAdmin, validationFailure } from '../errors.js';
import { activeUserIds, publishOnCommit } from '../events/publish.js';
import { formatPlayground } from '../format/playground.js';
import { templateVariables } from '../linkifiers/url-template-syntax.js';
import { type Actor, userOperation } from '../operation.js';
import { AddPlaygroundParams, RemovePlaygroundParams } from '../schemas/playgrounds.js';
import type { NewPlayground, Realm, StoredPlayground, Tx } from '../storage/types.js';
import { transactionAs } from '../transaction.js';

const BLANK = 'This field cannot be blank.';
/** The reference's RealmPlayground.pygments_language validator. */
const PYGMENTS_LANGUAGE = /^[ a-zA-Z0-9_+\-./#]*$/;

/**
 * The reference's full_clean of a RealmPlayground: field rules, then the template's variables,
 * then the unique (language, name) pair. Failures have the ValidationFailureError shape, as
 * linkifiers do: the first message, and `errors` per field.
 */
function checkPlayground(playground: NewPlayground, others: readonly StoredPlayground[]): Result<void, ApiError> {
  const errors: Record<string, string[]> = {};
  const fail = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (playground.name === '') fail('name', BLANK);
  if (playground.pygmentsLanguage === '') fail('pygments_language', BLANK);
  else if (!PYGMENTS_LANGUAGE.test(playground.pygmentsLanguage)) fail('pygments_language', 'Invalid characters in pygments language');
  const variables = playground.urlTemplate === '' ? null : templateVariables(playground.urlTemplate);
  if (playground.urlTemplate === '') fail('url_template', BLANK);
  else if (variables === null) fail('url_template', 'Invalid URL template.');
  else if (variables.length !== 1 || variables[0] !== 'code') fail('__all__', '"code" should be the only variable present in the URL template');
  if (others.some((p) => p.pygmentsLanguage === playground.pygmentsLanguage && p.name === playground.name)) {
    fail('__all__', 'Realm playground with this Realm, Pygments language and Name already exists.');
  }
  return Object.keys(errors).length === 0 ? ok(undefined) : err(validationFailure(errors));
}

async function announcePlaygrounds(ctx: Ctx, tx: Tx, realm: Realm): Promise<void> {
  const playgrounds = (await tx.playgrounds.list(realm.id)).map(formatPlayground);
  publishOnCommit(ctx, tx, {
    realmId: realm.id,
    userIds: await activeUserIds(tx, realm.id),
    event: { type: 'realm_playgrounds', realm_playgrounds: playgrounds },
  });
}

/** POST /realm/playgrounds: adds a playground (administrators) and answers its ID. */
export const doAddPlayground = userOperation(AddPlaygroundParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, { realm, user }) => {
    if (!isAdmin(user)) return err(mustBeAdmin());
    const playground = { name: params.name.trim(), pygmentsLanguage: params.pygments_language.trim(), urlTemplate: params.url_template.trim() };
    const checked = checkPlayground(playground, await tx.playgrounds.list(realm.id));
    if (checked.isErr()) return err(checked.error);
    const { id } = await tx.playgrounds.insert(realm.id, playground);
    await announcePlaygrounds(ctx, tx, realm);
    return ok({ id });
  }),
);

/** DELETE /realm/playgrounds/{playground_id}: removes one of the realm's playgrounds (administrators). */
export const doRemovePlayground = userOperation(RemovePlaygroundParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, { realm, user }) => {
    if (!isAdmin(user)) return err(mustBeAdmin());
    if (!(await tx.playgrounds.delete(realm.id, params.playground_id))) return err(badRequest('Invalid playground'));
    await announcePlaygrounds(ctx, tx, realm);
    return ok({});
  }),
);
