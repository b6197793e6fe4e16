import type { Client } from '@teamchat/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createReadMarker } from '../../../packages/web/src/lib/mark-read';

function fakeClient(fail = false) {
  const calls: unknown[] = [];
  const client = {
    updateMessageFlags: (params: unknown) => {
      calls.push(params);
      return fail ? Promise.reject(new Error('down')) : Promise.resolve({ result: 'success', msg: '' });
    },
  } as unknown as Client;
  return { client, calls };
}

describe('marking messages read as they are seen', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends the IDs seen in a moment as one request, and each ID once', async () => {
    const { client, calls } = fakeClient();
    const marker = createReadMarker(client, 400);
    marker.seen([1, 2]);
    marker.seen([2, 3]);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(400);
    expect(calls).toEqual([{ messages: [1, 2, 3], op: 'add', flag: 'read' }]);
    marker.seen([3, 4]);
    await vi.advanceTimersByTimeAsync(400);
    expect(calls).toEqual([
      { messages: [1, 2, 3], op: 'add', flag: 'read' },
      { messages: [4], op: 'add', flag: 'read' },
    ]);
  });

  it('tries again on a later sighting when the request failed', async () => {
    const { client, calls } = fakeClient(true);
    const marker = createReadMarker(client, 400);
    marker.seen([7]);
    await vi.advanceTimersByTimeAsync(400);
    marker.seen([7]);
    await vi.advanceTimersByTimeAsync(400);
    expect(calls).toHaveLength(2);
  });

  it('sends nothing after dispose, and nothing for nothing seen', async () => {
    const { client, calls } = fakeClient();
    const marker = createReadMarker(client, 400);
    marker.seen([]);
    marker.seen([1]);
    marker.dispose();
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toEqual([]);
  });
});
