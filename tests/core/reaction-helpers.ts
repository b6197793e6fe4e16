/** Shared pieces of the reaction and custom emoji tests: sending messages, uploads, reading reactions. */
import { doAddRealmEmoji, doSendMessage, getMessage, type UploadedFile, type User } from '@teamchat/core';
import { must, type World } from '../helpers/core.js';

/** The smallest PNG header the checks recognise, with a few bytes of body. */
export const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);
export const GIF = new TextEncoder().encode('GIF89a....');
export const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
export const WEBP = new TextEncoder().encode('RIFF\x10\x00\x00\x00WEBPVP8 ');

export const upload = (bytes: Uint8Array, filename = 'emoji.png', contentType = 'image/png'): UploadedFile => ({ filename, contentType, bytes });

/** Uploads a custom emoji as `user` and returns its stored ID. */
export async function addEmoji(w: World, user: User, name: string, bytes: Uint8Array = PNG): Promise<number> {
  must(await doAddRealmEmoji.fromTransport(w.ctx, w.as(user), { emoji_name: name, file: upload(bytes) }));
  const all = await w.ctx.storage.read((tx) => tx.realmEmoji.list(w.realm.id));
  return all.filter((e) => e.name === name && !e.deactivated)[0]!.id;
}

/** Sends a channel message (`to` a channel name) or a direct message (`to` users) and returns its ID. */
export async function send(w: World, sender: User, to: string | User[], content = 'hello'): Promise<number> {
  const params =
    typeof to === 'string'
      ? { type: 'stream', to, topic: 'greetings', content }
      : { type: 'direct', to: JSON.stringify(to.map((u) => u.id)), content };
  return (must(await doSendMessage.fromTransport(w.ctx, w.as(sender), params))).id;
}

/** The message's `reactions` as `viewer` reads them. */
export async function reactionsOf(w: World, viewer: User, messageId: number): Promise<unknown[]> {
  const { message } = must(await getMessage(w.ctx, w.as(viewer), { message_id: messageId })) as { message: { reactions: unknown[] } };
  return message.reactions;
}
