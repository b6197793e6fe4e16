import type Database from 'better-sqlite3';
import type { Stores } from '../types.js';
import { type Statements, statementCache } from './statements.js';
import { registerSearchBudget } from './search-budget.js';
import { defaultStreamStore, streamStore, subscriptionStore } from './channel-stores.js';
import { messageStore, reactionStore } from './message-stores.js';
import { alertWordStore } from './alert-word-stores.js';
import { linkifierStore } from './linkifier-stores.js';
import { playgroundStore } from './playground-stores.js';
import { botStorageStore } from './bot-storage-stores.js';
import { userGroupStore } from './user-group-stores.js';
import { draftStore } from './draft-stores.js';
import { scheduledMessageStore } from './scheduled-message-stores.js';
import { realmEmojiStore } from './emoji-stores.js';
import { customProfileFieldStore } from './profile-field-stores.js';
import { navigationViewStore } from './navigation-view-stores.js';
import { savedSnippetStore } from './saved-snippet-stores.js';
import { pushStore } from './push-stores.js';
import { realmDomainStore } from './realm-domain-stores.js';
import { attachmentStore } from './attachment-stores.js';
import { userTopicStore } from './user-topic-stores.js';
import { channelFolderStore } from './channel-folder-stores.js';
import { invitationStore } from './invitation-stores.js';
import { userStatusStore } from './user-status-stores.js';
import { mutedUserStore } from './muted-user-stores.js';
import { botStore } from './bot-stores.js';
import { presenceStore } from './presence-stores.js';
import { submessageStore } from './submessage-stores.js';
import { outboxStore, realmStore, userStore } from './stores.js';

/**
 * Every store over one connection, with that connection's prepared-statement cache and its
 * full-text search budget (`searchRowBudget`, see SqliteOptions).
 */
export function sqliteStores(db: Database.Database, searchRowBudget: number): Stores {
  registerSearchBudget(db, searchRowBudget);
  return storesOver(statementCache(db));
}

/**
 * Every store over one connection's statements: the store code both dialects share (the
 * PostgreSQL driver passes statements that translate each SQL text once).
 */
export function storesOver(statements: Statements): Stores {
  return {
    realms: realmStore(statements),
    users: userStore(statements),
    outbox: outboxStore(statements),
    messages: messageStore(statements),
    reactions: reactionStore(statements),
    alertWords: alertWordStore(statements),
    linkifiers: linkifierStore(statements),
    userGroups: userGroupStore(statements),
    drafts: draftStore(statements),
    scheduledMessages: scheduledMessageStore(statements),
    realmEmoji: realmEmojiStore(statements),
    customProfileFields: customProfileFieldStore(statements),
    navigationViews: navigationViewStore(statements),
    savedSnippets: savedSnippetStore(statements),
    push: pushStore(statements),
    realmDomains: realmDomainStore(statements),
    attachments: attachmentStore(statements),
    channelFolders: channelFolderStore(statements),
    streams: streamStore(statements),
    subscriptions: subscriptionStore(statements),
    defaultStreams: defaultStreamStore(statements),
    userTopics: userTopicStore(statements),
    invitations: invitationStore(statements),
    playgrounds: playgroundStore(statements),
    botStorage: botStorageStore(statements),
    userStatuses: userStatusStore(statements),
    mutedUsers: mutedUserStore(statements),
    bots: botStore(statements),
    presence: presenceStore(statements),
    submessages: submessageStore(statements),
  };
}
