/**
 * The format stamps migration (appended to MIGRATIONS): what formatted messages are kept under.
 *
 * `message_stamp` holds, for each message whose formatted record has changed since it was sent,
 * a random stamp that triggers replace with a fresh value, inside the writing transaction, on
 * every write to the message row (an edit, a move, …), to its reactions or to its submessages.
 * A message without a row has never changed since its insert (stamp 0). Readers keep what they
 * derive from those rows under the stamp (messages/page-rows.ts): the stamp is read in the
 * same snapshot as the rows, so a cached entry is used only while nothing it came from changed,
 * in this process or in any other on the same database. Random, not counted up, so that a
 * rolled-back write and a later committed one can never share a stamp.
 *
 * `user_state` is the users' counterpart of `channel_state` (migration 34): a token that every
 * write to the user table replaces, under which the senders a page names are kept.
 *
 * A separate table, not a column of `message`: message rows, their archives and their reads
 * stay as they are, and the stamps of a page are one small index lookup per message.
 * The reaction and submessage triggers write only while the message exists: when a message is
 * deleted, its reactions and submessages go with it (ON DELETE CASCADE) and leave no stamp.
 */
const STAMP = 'abs(random() % 9007199254740992)';

/** Replaces the stamp of message `id` (an expression over NEW or OLD) while the message exists. */
const bump = (id: string) =>
  `INSERT INTO message_stamp (message_id, stamp) SELECT ${id}, ${STAMP} WHERE EXISTS (SELECT 1 FROM message WHERE id = ${id})
     ON CONFLICT (message_id) DO UPDATE SET stamp = excluded.stamp;`;

export const FORMAT_STAMPS_MIGRATION = `
  CREATE TABLE message_stamp (message_id INTEGER NOT NULL PRIMARY KEY, stamp INTEGER NOT NULL);
  CREATE TRIGGER message_stamp_update AFTER UPDATE ON message BEGIN ${bump('NEW.id')} END;
  CREATE TRIGGER message_stamp_delete AFTER DELETE ON message BEGIN DELETE FROM message_stamp WHERE message_id = OLD.id; END;
  CREATE TRIGGER reaction_stamp_insert AFTER INSERT ON reaction BEGIN ${bump('NEW.message_id')} END;
  CREATE TRIGGER reaction_stamp_update AFTER UPDATE ON reaction BEGIN ${bump('NEW.message_id')} ${bump('OLD.message_id')} END;
  CREATE TRIGGER reaction_stamp_delete AFTER DELETE ON reaction BEGIN ${bump('OLD.message_id')} END;
  CREATE TRIGGER submessage_stamp_insert AFTER INSERT ON submessage BEGIN ${bump('NEW.message_id')} END;
  CREATE TRIGGER submessage_stamp_update AFTER UPDATE ON submessage BEGIN ${bump('NEW.message_id')} ${bump('OLD.message_id')} END;
  CREATE TRIGGER submessage_stamp_delete AFTER DELETE ON submessage BEGIN ${bump('OLD.message_id')} END;
  CREATE TABLE user_state (id INTEGER PRIMARY KEY CHECK (id = 1), token INTEGER NOT NULL);
  INSERT INTO user_state (id, token) VALUES (1, random());
  CREATE TRIGGER user_state_insert AFTER INSERT ON user BEGIN UPDATE user_state SET token = random() WHERE id = 1; END;
  CREATE TRIGGER user_state_update AFTER UPDATE ON user BEGIN UPDATE user_state SET token = random() WHERE id = 1; END;
  CREATE TRIGGER user_state_delete AFTER DELETE ON user BEGIN UPDATE user_state SET token = random() WHERE id = 1; END;
`;
