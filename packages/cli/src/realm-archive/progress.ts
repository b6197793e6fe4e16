/**
 * The progress of an export or import: one bar with the step in hand, counts and an ETA, drawn
 * on `stream` (stderr, beside the summary on stdout) when both are terminals; silent otherwise
 * (output redirected to a log or a pipe, tests).
 */
import { Presets, SingleBar } from 'cli-progress';

export interface StepProgress {
  start(total: number): void;
  /** What is being done now (a table's name, "uploads"). */
  step(name: string): void;
  advance(count: number): void;
  stop(): void;
}

export const silentProgress: StepProgress = { start: () => undefined, step: () => undefined, advance: () => undefined, stop: () => undefined };

export function terminalProgress(stream: NodeJS.WriteStream, verb: string, stdout: { isTTY?: boolean } = process.stdout): StepProgress {
  if (!stream.isTTY || !stdout.isTTY) return silentProgress;
  const bar = new SingleBar(
    { stream, format: `${verb} {step} [{bar}] {percentage}% {value}/{total} | ETA {eta_formatted}`, hideCursor: true, etaBuffer: 200 },
    Presets.shades_classic,
  );
  let step = '';
  return {
    start: (total) => bar.start(total, 0, { step: step.padEnd(24) }),
    step: (name) => {
      step = name;
      bar.update({ step: name.padEnd(24) });
    },
    advance: (count) => bar.increment(count, { step: step.padEnd(24) }),
    stop: () => bar.stop(),
  };
}
