import type { BotProfile, BotStore } from '../bot-types.js';
import type { TableMap } from './columns.js';
import type { Statements } from './statements.js';

interface BotRow {
  botId: number;
  defaultSendingStreamId: number | null;
  defaultEventsRegisterStreamId: number | null;
  defaultAllPublicStreams: boolean;
  serviceName: string | null;
  serviceBaseUrl: string | null;
  serviceInterface: number | null;
  serviceToken: string | null;
  configData: Record<string, string>;
}

const BOT: TableMap<BotRow> = { table: 'bot_profile', booleans: ['defaultAllPublicStreams'], json: ['configData'] };
const COLUMNS =
  'bot_id, default_sending_stream_id, default_events_register_stream_id, default_all_public_streams, service_name, service_base_url, service_interface, service_token, config_data';

function toProfile(row: BotRow): BotProfile {
  return {
    botId: row.botId,
    defaultSendingStreamId: row.defaultSendingStreamId,
    defaultEventsRegisterStreamId: row.defaultEventsRegisterStreamId,
    defaultAllPublicStreams: row.defaultAllPublicStreams,
    service:
      row.serviceName === null
        ? null
        : { name: row.serviceName, baseUrl: row.serviceBaseUrl ?? '', interface: row.serviceInterface ?? 1, token: row.serviceToken ?? '' },
    configData: row.configData,
  };
}

/** The bot store over a connection's statements. */
export function botStore(q: Statements): BotStore {
  return {
    async profiles(realmId, botIds) {
      if (botIds.length === 0) return [];
      // json_each keeps one SQL text (and one prepared statement) whatever the number of IDs.
      const rows = await q.all(
        BOT,
        `SELECT ${COLUMNS} FROM bot_profile WHERE realm_id = ? AND bot_id IN (SELECT value FROM json_each(?)) ORDER BY bot_id`,
        realmId,
        JSON.stringify(botIds),
      );
      return rows.map(toProfile);
    },
    async put(realmId, profile) {
      // Selecting the bot from its realm writes nothing for a human or a user of another realm.
      const result = await q.run(
        `INSERT INTO bot_profile (${COLUMNS}, realm_id)
         SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, realm_id FROM user WHERE realm_id = ? AND id = ? AND is_bot = 1
         ON CONFLICT (bot_id) DO UPDATE SET
           default_sending_stream_id = excluded.default_sending_stream_id,
           default_events_register_stream_id = excluded.default_events_register_stream_id,
           default_all_public_streams = excluded.default_all_public_streams,
           service_name = excluded.service_name,
           service_base_url = excluded.service_base_url,
           service_interface = excluded.service_interface,
           service_token = excluded.service_token,
           config_data = excluded.config_data`,
        profile.botId,
        profile.defaultSendingStreamId,
        profile.defaultEventsRegisterStreamId,
        profile.defaultAllPublicStreams ? 1 : 0,
        profile.service?.name ?? null,
        profile.service?.baseUrl ?? null,
        profile.service?.interface ?? null,
        profile.service?.token ?? null,
        JSON.stringify(profile.configData),
        realmId,
        profile.botId,
      );
      return result.changes === 1;
    },
  };
}
