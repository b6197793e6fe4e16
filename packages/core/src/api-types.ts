/**
 * The named result types of the operations (formatted users, channels, messages, …). Empty
 * until the operations' results are typed; index.ts re-exports whatever this module declares.
 */
export {};
