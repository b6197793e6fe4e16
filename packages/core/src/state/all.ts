/**
 * Every register snapshot section. Each area defines its sections in its own module
 * (defineStateSection); importing them here is what registers them, in the order the snapshot
 * is assembled.
 */
import './realm.js';
import './realm-user.js';
import './realm-bot.js';
import './user-settings.js';
import './channels.js';
import './messages.js';
import './realm-emoji.js';
import './starred-messages.js';
import './alert-words.js';
import './profile-fields.js';
import './navigation-views.js';
import './drafts.js';
import './linkifiers.js';
import './video-calls.js';
import './user-groups.js';
import './scheduled-messages.js';
import './saved-snippets.js';
import './devices.js';
import './realm-user-settings-defaults.js';
import './realm-domains.js';
import './user-topics.js';
import './channel-folders.js';
import './reminders.js';
import './playgrounds.js';
import './user-status.js';
import './muted-users.js';
import './recent-dm-conversations.js';
import './server-features.js';
import './presence.js';
