/** Settings: the user's own (profile, display) and, for administrators, the organization's. */
import { useWorkspace } from '../app-context';
import { isAdmin } from '../lib/permissions';
import { useStore } from '../lib/use-store';
import { DisplaySettings } from './settings/display-settings';
import { EmojiSettings } from './settings/emoji-settings';
import { InviteSettings } from './settings/invite-settings';
import { LinkifierSettings } from './settings/linkifier-settings';
import { OrganizationSettings } from './settings/organization-settings';
import { ProfileSettings } from './settings/profile-settings';
import { UserSettings } from './settings/user-settings';

const PERSONAL = [
  ['profile', 'Profile', ProfileSettings],
  ['display', 'Display', DisplaySettings],
] as const;
const ADMIN = [
  ['organization', 'Organization', OrganizationSettings],
  ['users', 'Users', UserSettings],
  ['invitations', 'Invitations', InviteSettings],
  ['linkifiers', 'Linkifiers', LinkifierSettings],
  ['emoji', 'Custom emoji', EmojiSettings],
] as const;

export function SettingsView({ section }: { section: string }) {
  const { chat } = useWorkspace();
  const realm = useStore(chat.realm);
  const sections = isAdmin(realm) ? [...PERSONAL, ...ADMIN] : [...PERSONAL];
  const current = sections.find(([key]) => key === section) ?? sections[0]!;
  const Section = current[2];
  return (
    <section class="settings" aria-labelledby="view-title">
      <h1 id="view-title" class="view-title">
        Settings
      </h1>
      <nav aria-label="Settings sections">
        <ul>
          {sections.map(([key, label]) => (
            <li key={key}>
              <a href={`#settings/${key}`} aria-current={key === current[0] ? 'page' : undefined}>
                {label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div class="settings-section">
        <h2>{current[1]}</h2>
        <Section />
      </div>
    </section>
  );
}
