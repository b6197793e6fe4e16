/**
 * Marks messages read as they are seen: IDs collect for a moment and go in one
 * POST /messages/flags, so scrolling through a hundred messages sends one request, not a hundred.
 */
import type { Client } from '@teamchat/client';

export function createReadMarker(client: Client, delayMs = 400) {
  const pending = new Set<number>();
  const sent = new Set<number>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    const ids = [...pending];
    pending.clear();
    if (ids.length === 0) return;
    for (const id of ids) sent.add(id);
    client.updateMessageFlags({ messages: ids, op: 'add', flag: 'read' }).catch(() => {
      // Not marked: let a later sighting try again.
      for (const id of ids) sent.delete(id);
    });
  };
  return {
    seen(ids: readonly number[]) {
      for (const id of ids) if (!sent.has(id)) pending.add(id);
      if (pending.size > 0) timer ??= setTimeout(flush, delayMs);
    },
    dispose() {
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}
