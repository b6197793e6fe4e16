/**
 * A small benchmark harness: runs an async task from `concurrency` workers for a fixed time
 * (after a short warm-up) and reports throughput and latency percentiles.
 */
import { performance } from 'node:perf_hooks';

export interface Sample {
  name: string;
  concurrency: number;
  ops: number;
  errors: number;
  opsPerSec: number;
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
}

export interface MeasureOptions {
  concurrency?: number;
  durationMs?: number;
  warmupMs?: number;
}

/** `task(i)` gets a running counter; it throws (or rejects) to count an error. */
export async function measure(
  name: string,
  task: (i: number) => Promise<unknown>,
  { concurrency = 1, durationMs = 2000, warmupMs = 300 }: MeasureOptions = {},
): Promise<Sample> {
  let counter = 0;
  const drive = async (until: number, latencies: number[] | null) => {
    let errors = 0;
    const worker = async () => {
      while (performance.now() < until) {
        const start = performance.now();
        try {
          await task(counter++);
        } catch {
          errors++;
        }
        latencies?.push(performance.now() - start);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    return errors;
  };
  await drive(performance.now() + warmupMs, null);
  const latencies: number[] = [];
  const started = performance.now();
  const errors = await drive(started + durationMs, latencies);
  const elapsed = performance.now() - started;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    name,
    concurrency,
    ops: latencies.length,
    errors,
    opsPerSec: (latencies.length / elapsed) * 1000,
    meanMs: latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length),
    p50Ms: at(0.5),
    p99Ms: at(0.99),
  };
}

/** Prints samples as an aligned text table. */
export function printTable(samples: readonly Sample[]): void {
  const header = ['benchmark', 'conc', 'ops', 'errors', 'ops/s', 'mean ms', 'p50 ms', 'p99 ms'];
  const rows = samples.map((s) => [
    s.name,
    String(s.concurrency),
    String(s.ops),
    String(s.errors),
    Math.round(s.opsPerSec).toLocaleString('en-US'),
    s.meanMs.toFixed(3),
    s.p50Ms.toFixed(3),
    s.p99Ms.toFixed(3),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}
