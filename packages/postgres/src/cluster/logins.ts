/** Login attempts shared between nodes through NOTIFY (see core's LoginAttemptFeed). */
import type { LoginAttemptChange, LoginAttemptFeed, Logger } from '@teamchat/core/internal';
import type { Sql } from 'postgres';

export async function postgresLoginAttemptFeed(sql: Sql, channel: string, nodeId: string, logger: Logger): Promise<LoginAttemptFeed & { close(): Promise<void> }> {
  let listener: (change: LoginAttemptChange) => void = () => undefined;
  const listening = await sql.listen(channel, (payload) => {
    const message = JSON.parse(payload) as { n: string; c: LoginAttemptChange };
    if (message.n !== nodeId) listener(message.c);
  });
  return {
    send(change) {
      sql.notify(channel, JSON.stringify({ n: nodeId, c: change })).catch((error: unknown) => logger.error({ err: error }, 'sharing a login attempt failed'));
    },
    receive(onChange) {
      listener = onChange;
    },
    close: () => listening.unlisten(),
  };
}
