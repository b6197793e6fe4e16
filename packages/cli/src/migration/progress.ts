/** The migration's progress bar: on a terminal only, silent otherwise (logs, pipes, tests). */
import { Presets, SingleBar } from 'cli-progress';
import type { Progress } from './copy-tables.js';

export function progressReporter(stream: NodeJS.WriteStream): Progress {
  if (!stream.isTTY) return { start: () => undefined, advance: () => undefined, stop: () => undefined };
  const bar = new SingleBar({ stream, format: 'copying rows [{bar}] {percentage}% {value}/{total}', hideCursor: true }, Presets.shades_classic);
  return {
    start: (total) => bar.start(total, 0),
    advance: (rows) => bar.increment(rows),
    stop: () => bar.stop(),
  };
}
