/**
 * Where core reports what no caller can be told: a failed background job, an after-commit step
 * that threw, an operation that hit an unexpected exception. The shape is pino's (fields object
 * first, then the message), so a pino logger can be passed as it is.
 */
export interface Logger {
  error(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  info(fields: object, message?: string): void;
  debug(fields: object, message?: string): void;
}

/** The default: errors and warnings to the console's error stream; info and debug dropped. */
export const consoleLogger: Logger = {
  error: (fields, message) => console.error(`teamchat: ${message ?? 'error'}`, fields),
  warn: (fields, message) => console.error(`teamchat: ${message ?? 'warning'}`, fields),
  info: () => undefined,
  debug: () => undefined,
};

/** A logger that drops everything (tests that provoke failures on purpose). */
export const silentLogger: Logger = {
  error: () => undefined,
  warn: () => undefined,
  info: () => undefined,
  debug: () => undefined,
};
