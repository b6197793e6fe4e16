/**
 * What background jobs log: one line per run that did work (the job's count), nothing for a run
 * that found nothing to do, and a failed run's error with its stack.
 */
import type { Logger } from '@teamchat/core';
import { startPeriodicJob } from '@teamchat/core/internal';
import { describe, expect, it } from 'vitest';

type Line = { level: string; fields: Record<string, unknown>; message?: string };

function recordingLogger(): { logger: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const at = (level: string) => (fields: object, message?: string) => void lines.push({ level, fields: fields as Record<string, unknown>, message });
  return { lines, logger: { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') } };
}

/** Runs a job once (the start-up run) and stops it. */
async function runOnce(logger: Logger, job: () => Promise<unknown>, options?: { workLevel?: 'info' | 'debug' }): Promise<void> {
  const periodic = startPeriodicJob(logger, 'test sweep', 60_000, job, undefined, options);
  await periodic.idle();
  periodic.stop();
}

describe('periodic job lines', () => {
  it('logs a run that did work, with its count and duration', async () => {
    const { logger, lines } = recordingLogger();
    await runOnce(logger, async () => 3);
    expect(lines).toEqual([{ level: 'info', fields: { job: 'test sweep', count: 3, durationMs: expect.any(Number) }, message: 'test sweep: 3 done' }]);
  });

  it('says nothing for a run with nothing to do, or a job that reports no count', async () => {
    const { logger, lines } = recordingLogger();
    await runOnce(logger, async () => 0);
    await runOnce(logger, async () => undefined);
    expect(lines).toEqual([]);
  });

  it('logs at debug for a frequent job', async () => {
    const { logger, lines } = recordingLogger();
    await runOnce(logger, async () => 2, { workLevel: 'debug' });
    expect(lines.map((line) => line.level)).toEqual(['debug']);
  });

  it('logs a failed run as an error carrying the exception (and so its stack)', async () => {
    const { logger, lines } = recordingLogger();
    const failure = new Error('store gone');
    await runOnce(logger, async () => Promise.reject(failure));
    expect(lines).toEqual([{ level: 'error', fields: { err: failure, job: 'test sweep' }, message: 'test sweep failed' }]);
    expect((lines[0]!.fields.err as Error).stack).toContain('store gone');
  });
});
