/** @teamchat/postgres: the storage contract over PostgreSQL (see driver.ts and the README). */
export { createPostgresStorage, type PostgresOptions } from './driver.js';
