/**
 * The server's log: pino, human-readable (pino-pretty) on a terminal and JSON lines otherwise,
 * at `--log-level` or TEAMCHAT_LOG_LEVEL (info by default). Everything the server reports goes
 * through it: start-up and shutdown, one line per request, background jobs, errors with stacks.
 */
import { createServerLogger } from '@teamchat/http-adapter';
import type { LevelWithSilent, Logger } from 'pino';
import pretty from 'pino-pretty';
import { CliError } from './data-dir.js';

export const LOG_LEVELS: readonly LevelWithSilent[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

/** A level's name (`--log-level`, TEAMCHAT_LOG_LEVEL): one pino knows, or start-up stops. */
export function parseLogLevel(raw: string, source: string): LevelWithSilent {
  const level = raw.toLowerCase() as LevelWithSilent;
  if (!LOG_LEVELS.includes(level)) throw new CliError(`${source} takes one of ${LOG_LEVELS.join(', ')}, not '${raw}'`);
  return level;
}

/**
 * JSON lines are written asynchronously and flushed by pino when the process exits (lines
 * before a `process.exit` are kept); on a terminal, pino-pretty writes each line at once.
 */
export function createCliLogger(level: LevelWithSilent): Logger {
  if (!process.stdout.isTTY) return createServerLogger(level);
  return createServerLogger(level, pretty({ sync: true, singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }));
}

/**
 * Where start-up and shutdown lines go: the log, at info even when the level is warn or above,
 * because scripts and supervisors wait for the listening line and operators look for the
 * stop. Only `silent` silences them.
 */
export function lifecycleLogger(logger: Logger): Logger {
  if (logger.level === 'silent' || logger.isLevelEnabled('info')) return logger;
  return logger.child({}, { level: 'info' });
}
