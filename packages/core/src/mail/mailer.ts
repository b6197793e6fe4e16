import type { OutgoingMail } from '../storage/types.js';

/**
 * Delivers outgoing mail. Actions never call it directly: they write to the outbox table inside
 * their transaction, and `flushOutbox` hands committed mail to the mailer afterwards.
 */
export interface Mailer {
  deliver(mail: OutgoingMail): Promise<void>;
}

/** Collects delivered mail in memory; for tests and embedders that read mail themselves. */
export function memoryMailer(): Mailer & { sent: OutgoingMail[] } {
  const sent: OutgoingMail[] = [];
  return { sent, deliver: async (mail) => void sent.push(mail) };
}
