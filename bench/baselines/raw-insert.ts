/**
 * Baseline of the send figure: raw better-sqlite3 (the copy core uses) on a copy of the seeded
 * database, synchronous = FULL, one transaction per message inserting the rows a channel
 * message writes: the message, its full-text row and one copy per subscriber (the sender's
 * marked read). Arguments: database file, stream ID, sender ID, seconds. Prints
 * `result {"perSecond": …}` after running for that long.
 */
import { createRequire } from 'node:module';

const [file, streamArg, senderArg, secondsArg] = process.argv.slice(2);
const streamId = Number(streamArg);
const senderId = Number(senderArg);
const require = createRequire(new URL('../../packages/core/package.json', import.meta.url));
/** The part of better-sqlite3 used here (its types are core's dependency, not the root's). */
interface Statement {
  run(...values: unknown[]): { lastInsertRowid: number | bigint };
  get(...values: unknown[]): unknown;
  all(...values: unknown[]): unknown[];
}
interface Connection {
  pragma(source: string): unknown;
  prepare(sql: string): Statement;
  transaction(fn: () => void): () => void;
  close(): void;
}
const Database = require('better-sqlite3') as new (file: string) => Connection;
const db = new Database(file!);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('foreign_keys = ON');

const realmId = (db.prepare('SELECT realm_id FROM stream WHERE id = ?').get(streamId) as { realm_id: number }).realm_id;
const subscribers = (db.prepare('SELECT user_id FROM subscription WHERE stream_id = ? AND active = 1').all(streamId) as { user_id: number }[]).map((r) => r.user_id);
const insertMessage = db.prepare(
  `INSERT INTO message (realm_id, sender_id, type, stream_id, topic, content, rendered_content, date_sent, sending_client)
   VALUES (?, ?, 'stream', ?, 'bench', 'hello', '<p>hello</p>', ?, 'bench')`,
);
const insertText = db.prepare('INSERT INTO message_fts (rowid, content, topic) VALUES (?, ?, ?)');
const insertCopy = db.prepare('INSERT INTO user_message (user_id, message_id, flags) VALUES (?, ?, ?)');
const sendOne = db.transaction(() => {
  const id = Number(insertMessage.run(realmId, senderId, streamId, Math.floor(Date.now() / 1000)).lastInsertRowid);
  insertText.run(id, 'hello', 'bench');
  for (const userId of subscribers) insertCopy.run(userId, id, userId === senderId ? 1 : 0);
});

const until = performance.now() + Number(secondsArg) * 1000;
const started = performance.now();
let messages = 0;
while (performance.now() < until) {
  sendOne();
  messages++;
}
const perSecond = messages / ((performance.now() - started) / 1000);
db.close();
console.log(`result ${JSON.stringify({ perSecond, subscribers: subscribers.length })}`);
