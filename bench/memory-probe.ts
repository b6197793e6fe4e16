/**
 * Memory as the memory figures count it, measured inside a server process started with
 * --expose-gc and an IPC channel: after two full collections, heapUsed + external (what the
 * JavaScript objects and their buffers hold) and RSS (what the process holds from the system).
 */
export interface MemorySample {
  heapAndExternal: number;
  rss: number;
  /** What the server says it holds (held requests), when it can tell. */
  holding?: number;
}

/** Answers each IPC message 'memory' with a MemorySample. */
export function answerMemoryProbes(holding?: () => number): void {
  if (!process.send) return;
  process.on('message', (message) => {
    if (message !== 'memory') return;
    const gc = (globalThis as { gc?: () => void }).gc;
    if (!gc) throw new Error('the memory probe needs --expose-gc');
    gc();
    gc();
    const usage = process.memoryUsage();
    const sample: MemorySample = { heapAndExternal: usage.heapUsed + usage.external, rss: usage.rss, holding: holding?.() };
    process.send!(sample);
  });
}
