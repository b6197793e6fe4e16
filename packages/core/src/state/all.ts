/**
 * Every register snapshot section, in the order the snapshot is assembled. Each area's module
 * exports its sections; this table is the one place that lists them (fetchInitialState reads it).
 *
 * RegisterResponse (register-response.ts) stays the documented, hand-written answer type: it
 * carries JSDoc and literal unions that a type inferred from the fetchers would lose. The
 * checks at the end of this file keep the two from drifting: `npm run typecheck` fails when a
 * section gives a key RegisterResponse does not declare, or when InitialState declares a key
 * that no section gives. (That each value fits its declared type is checked by defineSection.)
 */
import type { RegisterResponse, InitialState } from './register-response.js';
import type { StateSection } from './sections.js';
import { alertWordsSection } from './alert-words.js';
import { channelFoldersSection } from './channel-folders.js';
import { defaultStreamsSection, streamSection, subscriptionSection } from './channels.js';
import { deviceSection } from './devices.js';
import { draftsSection } from './drafts.js';
import { realmFiltersSection, realmLinkifiersSection } from './linkifiers.js';
import { messageSection } from './messages.js';
import { mutedUsersSection } from './muted-users.js';
import { navigationViewsSection } from './navigation-views.js';
import { realmPlaygroundsSection } from './playgrounds.js';
import { presenceSection } from './presence.js';
import { customProfileFieldsSection } from './profile-fields.js';
import { realmBotSection } from './realm-bot.js';
import { realmDomainsSection } from './realm-domains.js';
import { realmEmojiSection } from './realm-emoji.js';
import { realmUserSettingsDefaultsSection } from './realm-user-settings-defaults.js';
import { realmUserSection } from './realm-user.js';
import { realmSection } from './realm.js';
import { recentPrivateConversationsSection } from './recent-dm-conversations.js';
import { remindersSection } from './reminders.js';
import { savedSnippetsSection } from './saved-snippets.js';
import { scheduledMessagesSection } from './scheduled-messages.js';
import { defaultStreamGroupsSection, giphySection, onboardingStepsSection, realmBillingSection, realmEmbeddedBotsSection, realmIncomingWebhookBotsSection, stopWordsSection } from './server-features.js';
import { starredMessagesSection } from './starred-messages.js';
import { realmUserGroupsSection } from './user-groups.js';
import { userSettingsSection } from './user-settings.js';
import { userStatusSection } from './user-status.js';
import { mutedTopicsSection, userTopicSection } from './user-topics.js';
import { videoCallsSection } from './video-calls.js';

export const STATE_SECTIONS = [
  realmSection,
  realmUserSection,
  realmBotSection,
  userSettingsSection,
  subscriptionSection,
  streamSection,
  defaultStreamsSection,
  messageSection,
  realmEmojiSection,
  starredMessagesSection,
  alertWordsSection,
  customProfileFieldsSection,
  navigationViewsSection,
  draftsSection,
  realmLinkifiersSection,
  realmFiltersSection,
  videoCallsSection,
  realmUserGroupsSection,
  scheduledMessagesSection,
  savedSnippetsSection,
  deviceSection,
  realmUserSettingsDefaultsSection,
  realmDomainsSection,
  userTopicSection,
  mutedTopicsSection,
  channelFoldersSection,
  remindersSection,
  realmPlaygroundsSection,
  userStatusSection,
  mutedUsersSection,
  recentPrivateConversationsSection,
  stopWordsSection,
  defaultStreamGroupsSection,
  onboardingStepsSection,
  realmEmbeddedBotsSection,
  realmIncomingWebhookBotsSection,
  realmBillingSection,
  giphySection,
  presenceSection,
] as const satisfies readonly StateSection[];

/** The keys a section gives, from the fetch result type defineSection kept; distributes over a union of sections. */
type KeysGiven<S> = S extends StateSection<infer T> ? KeysOf<T> : never;
/** The keys of each member of a union (a section may answer different shapes, e.g. for spectators). */
type KeysOf<T> = T extends unknown ? keyof T : never;
/** Every key some section gives. */
type SectionKeys = KeysGiven<(typeof STATE_SECTIONS)[number]>;

/** Compiles only when `T` is `never`; the error names the offending keys. */
type Expect<T extends never> = T;
/** Keys a section gives that RegisterResponse does not declare: declare them there. */
export type UndeclaredSectionKeys = Expect<Exclude<SectionKeys, keyof RegisterResponse>>;
/** Keys InitialState declares that no section gives: remove them, or add their section. */
export type UnfetchedStateKeys = Expect<Exclude<keyof InitialState, SectionKeys>>;
