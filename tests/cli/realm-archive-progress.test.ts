/** The export and import progress bar: counts, the step and an ETA on a terminal; nothing when the output is not one. */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { silentProgress, terminalProgress } from '../../packages/cli/src/realm-archive/progress.js';

/** A stream that says it is a terminal and keeps what is written to it. */
function fakeTerminal(isTTY: boolean): { stream: NodeJS.WriteStream; text: () => string } {
  let written = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      written += String(chunk);
      done();
    },
  }) as unknown as NodeJS.WriteStream;
  Object.assign(stream, { isTTY, columns: 120, cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
  return { stream, text: () => written };
}

describe('export and import progress', () => {
  it('draws the step, the counts and an ETA when stderr and stdout are terminals', () => {
    const { stream, text } = fakeTerminal(true);
    const progress = terminalProgress(stream, 'importing', { isTTY: true });
    expect(progress).not.toBe(silentProgress);
    progress.start(10);
    progress.step('message');
    progress.advance(3);
    progress.stop();
    expect(text()).toMatch(/importing message\s+\[.*\] 30% 3\/10 \| ETA /);
  });

  it('is silent when stdout is not a terminal (a log, a pipe), or stderr is not', () => {
    expect(terminalProgress(fakeTerminal(true).stream, 'exporting', { isTTY: false })).toBe(silentProgress);
    const quiet = fakeTerminal(false);
    const progress = terminalProgress(quiet.stream, 'exporting', { isTTY: true });
    expect(progress).toBe(silentProgress);
    progress.start(5);
    progress.advance(5);
    progress.stop();
    expect(quiet.text()).toBe('');
  });
});
