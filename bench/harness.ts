/**
 * The shared method of every figure: a warm-up run of each side (discarded), then three
 * measured runs of the baseline and of the product in turns (baseline, product, baseline, …),
 * and the median of each side's three. A figure is printed as value, baseline, ratio and target.
 */
import autocannon from 'autocannon';

export const RUNS = 3;
/** Seconds of a measured closed-loop or open-loop run (BENCH_SECONDS). */
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** Seconds of a warm-up run. */
export const WARMUP_SECONDS = Math.min(2, SECONDS);

export interface Figure {
  name: string;
  unit: string;
  value: number;
  /** The baseline's median, when the figure has one. */
  baseline?: number;
  /** "ratio >= 0.6", "value <= 25": what the target compares; none for a figure that only informs (the cluster group). */
  target?: { of: 'ratio' | 'value'; atMost?: number; atLeast?: number };
  /** Extra context printed under the table (the runs, latencies, what the baseline is). */
  notes: string[];
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The q-quantile (0..1) of unsorted samples. */
export const quantile = (values: readonly number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};

/**
 * Runs the baseline and the product in turns: one discarded warm-up each, then RUNS of each,
 * alternating. Returns each side's measured runs in order.
 */
export async function inTurns(baseline: (warmup: boolean) => Promise<number>, product: (warmup: boolean) => Promise<number>): Promise<{ baseline: number[]; product: number[] }> {
  await baseline(true);
  await product(true);
  const runs = { baseline: [] as number[], product: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    runs.baseline.push(await baseline(false));
    runs.product.push(await product(false));
  }
  return runs;
}

/** A product-only figure: one discarded warm-up, then RUNS measured runs. */
export async function productRuns(product: (warmup: boolean) => Promise<number>): Promise<number[]> {
  await product(true);
  const runs: number[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await product(false));
  return runs;
}

export interface LoadOptions {
  url: string;
  connections: number;
  seconds: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Makes each request's path (for GET /messages over many narrows). */
  path?: () => string;
}

export interface LoadResult {
  /** Successful (2xx) responses per second. */
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/** A closed-loop run of autocannon; any non-2xx answer or socket error fails the run. */
export async function closedLoop(options: LoadOptions): Promise<LoadResult> {
  const makePath = options.path;
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    requests: makePath ? [{ setupRequest: (request) => ({ ...request, path: makePath() }) }] : undefined,
  });
  if (result['2xx'] === 0 || result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${options.method ?? 'GET'} ${options.url}: ${result['2xx']} 2xx, ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return { perSecond: result['2xx'] / result.duration, p50Ms: result.latency.p50, p99Ms: result.latency.p99 };
}

const format = (value: number, unit: string) => {
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })} ${unit}`;
};

/** Whether the figure meets its target, and the ratio it is judged by (if it has a baseline). */
export function judge(figure: Figure): { ratio?: number; met: boolean } {
  const ratio = figure.baseline === undefined ? undefined : figure.value / figure.baseline;
  if (!figure.target) return { ratio, met: true };
  const judged = figure.target.of === 'ratio' ? ratio! : figure.value;
  const met = (figure.target.atMost === undefined || judged <= figure.target.atMost) && (figure.target.atLeast === undefined || judged >= figure.target.atLeast);
  return { ratio, met };
}

const describeTarget = ({ target, unit }: Figure) => {
  if (!target) return '–';
  const what = target.of === 'ratio' ? '' : ` ${unit}`;
  const bound = target.atMost !== undefined ? `≤ ${target.atMost}` : `≥ ${target.atLeast}`;
  return `${bound}${target.of === 'ratio' ? '× baseline' : what}`;
};

/** Prints the figures as a Markdown table (pasteable into BENCHMARKS.md), then their notes. */
export function printFigures(figures: readonly Figure[]): void {
  console.log('| figure | value | baseline | ratio | target | |');
  console.log('|---|---|---|---|---|---|');
  for (const figure of figures) {
    const { ratio, met } = judge(figure);
    const baseline = figure.baseline === undefined ? '–' : format(figure.baseline, figure.unit);
    console.log(`| ${figure.name} | ${format(figure.value, figure.unit)} | ${baseline} | ${ratio === undefined ? '–' : `${ratio.toFixed(2)}×`} | ${describeTarget(figure)} | ${figure.target ? (met ? 'met' : 'missed') : ''} |`);
  }
  for (const figure of figures) {
    if (figure.notes.length === 0) continue;
    console.log(`\n${figure.name}:`);
    for (const note of figure.notes) console.log(`  ${note}`);
  }
}

/** Progress for the person waiting (stderr, so stdout stays the report). */
export const progress = (line: string) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);

/** Formats one side's runs for a note. */
export const listRuns = (runs: readonly number[], unit: string) => runs.map((r) => format(r, unit)).join(', ');
