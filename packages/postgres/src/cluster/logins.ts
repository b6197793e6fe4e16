/** Login attempts shared between nodes through NOTIFY (see core's LoginAttemptFeed). */
import type { LoginAttemptChange, LoginAttemptFeed, Logger } from '@teamchat/core';
import type { Sql } from 'postgres';

export const LOGINS_CHANNEL = 'teamchat_logins';

export async function postgresLoginAttemptFeed(sql: Sql, nodeId: string, logger: Logger): Promise<LoginAttemptFeed & { close(): Promise<void> }> {
  let listener: (change: LoginAttemptChange) => void = () => undefined;
  const listening = await sql.listen(LOGINS_CHANNEL, (payload) => {
    const message = JSON.parse(payload) as { n: string; c: LoginAttemptChange };
    if (message.n !== nodeId) listener(message.c);
  });
  return {
    send(change) {
      sql.notify(LOGINS_CHANNEL, JSON.stringify({ n: nodeId, c: change })).catch((error: unknown) => logger.error({ err: error }, 'sharing a login attempt failed'));
    },
    receive(onChange) {
      listener = onChange;
    },
    close: () => listening.unlisten(),
  };
}
