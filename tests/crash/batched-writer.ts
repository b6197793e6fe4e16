/**
 * The child of group-commit-crash.test.ts: writes to a SQLite file through the driver as fast
 * as it can, with many transactions in flight so that they commit in batches, and prints
 * `ack <n>` on stdout for each transaction whose promise resolved (its caller was answered).
 * Each transaction writes two outbox rows with subject `<n>`, awaiting between them, so a
 * batch spans many turns of the event loop. It runs until it is killed.
 *
 * With `checkpoint-often`, the WAL checkpointer works without a pause (every millisecond,
 * the WAL started over past 64 pages) and each row is 4 KB, so that the kill most likely
 * lands while a checkpoint is copying the WAL into the database file.
 *
 *   node --import tsx tests/crash/batched-writer.ts <file> <first n> [checkpoint-often]
 */
import { ok } from 'neverthrow';
import { createSqliteStorage } from '../../packages/core/src/storage/sqlite/driver.js';

const [file, first, mode] = process.argv.slice(2);
const IN_FLIGHT = 16;
const often = mode === 'checkpoint-often';

const storage = createSqliteStorage({ filename: file!, ...(often ? { checkpoints: { intervalMs: 1, limitPages: 64 } } : {}) });
const realm = await storage.read((tx) => tx.realms.bySubdomain('crash'));
const realmId =
  realm?.id ??
  (
    await storage.transaction(async (tx) =>
      ok(
        await tx.realms.insert({
          subdomain: 'crash', name: 'Crash', description: '', url: 'http://crash.example.com',
          uuid: '00000000-0000-4000-8000-000000000001', dateCreated: 0, deactivated: false,
          webPublicAccessEnabled: false, emailAuthEnabled: true, defaultAvatarSource: 'G',
        }),
      ),
    )
  )._unsafeUnwrap().id;

let next = Number(first);
const padding = often ? ` ${'x'.repeat(4000)}` : '';
const mail = (n: number, body: string) => ({ realmId, to: 'crash@example.com', subject: String(n), body: body + padding, createdAt: n });

async function writer(): Promise<never> {
  for (;;) {
    const n = next++;
    await storage.transaction(async (tx) => {
      await tx.outbox.insert(mail(n, 'first'));
      await new Promise((resolve) => setImmediate(resolve));
      await tx.outbox.insert(mail(n, 'second'));
      return ok(undefined);
    });
    process.stdout.write(`ack ${n}\n`);
  }
}

process.stdout.write('ready\n');
await Promise.all(Array.from({ length: IN_FLIGHT }, writer));
