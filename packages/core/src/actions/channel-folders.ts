/**
 * Channel folders (zerver/actions/channel_folders.py): administrators create, rename, describe,
 * archive and reorder them; every change is a `channel_folder` event to all the realm's active
 * users (folders are not secret: even guests list them), sent after commit.
 */
import { err, ok, type Result } from 'neverthrow';
import { isAdmin } from '../access/roles.js';
import { unixSeconds } from '../clock.js';
import type { Ctx } from '../context.js';
import { type ApiError, badRequest, mustBeAdmin } from '../errors.js';
import { activeUserIds, publishOnCommit } from '../events/publish.js';
import { renderChannelDescription } from '../format/channel.js';
import { formatChannelFolder } from '../format/channel-folder.js';
import { type Actor, userOperation } from '../operation.js';
import { CreateChannelFolderParams, ReorderChannelFoldersParams, UpdateChannelFolderParams } from '../schemas/channel-folders.js';
import type { Realm, Tx } from '../storage/types.js';
import { unprintablePosition } from '../text/printable.js';
import { transactionAs } from '../transaction.js';
import type { DistributiveOmit } from '../events/types.js';
import type { ChannelFolderEvent } from '../events/union/channels.js';

const nameInUse = () => badRequest('Channel folder name already in use');

/** check_channel_folder_name without the uniqueness check, which the store's unique index makes. */
function checkFolderName(name: string): Result<string, ApiError> {
  if (name.trim() === '') return err(badRequest("Channel folder name can't be empty."));
  const position = unprintablePosition(name);
  if (position > 0) return err(badRequest(`Invalid character in channel folder name, at position ${position}.`));
  return ok(name);
}

/** A channel_folder event to every active user of the realm. */
async function announce(ctx: Ctx, tx: Tx, realm: Realm, body: DistributiveOmit<ChannelFolderEvent, 'type'>): Promise<void> {
  publishOnCommit(ctx, tx, { realmId: realm.id, userIds: await activeUserIds(tx, realm.id), event: { type: 'channel_folder', ...body } });
}

/** POST /channel_folders/create: the name is kept as given (the reference does not strip it). */
export const doCreateChannelFolder = userOperation(CreateChannelFolderParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, { realm, user }) => {
    if (!isAdmin(user)) return err(mustBeAdmin());
    const name = checkFolderName(params.name);
    if (name.isErr()) return err(name.error);
    const folder = await tx.channelFolders.insert({
      realmId: realm.id,
      name: name.value,
      description: params.description,
      renderedDescription: renderChannelDescription(realm, params.description, new Date(ctx.clock.now())),
      creatorId: user.id,
      dateCreated: unixSeconds(ctx.clock),
      isArchived: false,
    });
    if (!folder) return err(nameInUse());
    await announce(ctx, tx, realm, { op: 'add', channel_folder: formatChannelFolder(folder) });
    return ok({ channel_folder_id: folder.id });
  }),
);

/**
 * PATCH /channel_folders/{id}: name, description and archiving, each announced by its own
 * update event in that order, all in one transaction. Only what changes is written and
 * announced. A folder any channel is in (archived channels too) cannot be archived.
 */
export const doUpdateChannelFolder = userOperation(UpdateChannelFolderParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, { realm, user }) => {
    if (!isAdmin(user)) return err(mustBeAdmin());
    const folder = await tx.channelFolders.byId(realm.id, params.channel_folder_id);
    if (!folder) return err(badRequest('Invalid channel folder ID'));
    const update = (data: Record<string, unknown>) => announce(ctx, tx, realm, { op: 'update', channel_folder_id: folder.id, data });
    if (params.name !== undefined && params.name !== folder.name) {
      const name = checkFolderName(params.name);
      if (name.isErr()) return err(name.error);
      if (!(await tx.channelFolders.update(realm.id, folder.id, { name: name.value }))) return err(nameInUse());
      await update({ name: name.value });
    }
    if (params.description !== undefined && params.description !== folder.description) {
      const rendered = renderChannelDescription(realm, params.description, new Date(ctx.clock.now()));
      await tx.channelFolders.update(realm.id, folder.id, { description: params.description, renderedDescription: rendered });
      await update({ description: params.description, rendered_description: rendered });
    }
    if (params.is_archived !== undefined && params.is_archived !== folder.isArchived) {
      if (params.is_archived && (await tx.streams.list(realm.id)).some((s) => s.folderId === folder.id)) {
        return err(badRequest('You need to remove all the channels from this folder to archive it.'));
      }
      await tx.channelFolders.update(realm.id, folder.id, { isArchived: params.is_archived });
      await update({ is_archived: params.is_archived });
    }
    return ok({});
  }),
);

/** PATCH /channel_folders (FL 414): `order` lists every folder of the realm exactly once. */
export const doReorderChannelFolders = userOperation(ReorderChannelFoldersParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, { realm, user }) => {
    if (!isAdmin(user)) return err(mustBeAdmin());
    const folderIds = new Set((await tx.channelFolders.list(realm.id)).map((f) => f.id));
    const wanted = new Set(params.order);
    if (wanted.size !== params.order.length || wanted.size !== folderIds.size || params.order.some((id) => !folderIds.has(id))) {
      return err(badRequest('Invalid order mapping.'));
    }
    await tx.channelFolders.reorder(realm.id, params.order);
    await announce(ctx, tx, realm, { op: 'reorder', order: [...params.order] });
    return ok({});
  }),
);
