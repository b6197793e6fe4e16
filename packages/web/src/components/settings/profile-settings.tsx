/** The user's name, avatar and time zone. */
import { useState } from 'preact/hooks';
import { useWorkspace } from '../../app-context';
import { useStore } from '../../lib/use-store';
import { Avatar } from '../avatar';
import { ActionMessage, useAction } from './use-action';

function timeZones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  return intl.supportedValuesOf?.('timeZone') ?? ['UTC'];
}

export function ProfileSettings() {
  const { client, chat } = useWorkspace();
  const people = useStore(chat.people);
  const settings = useStore(chat.userSettings);
  const me = people.get(chat.ownId);
  const [fullName, setFullName] = useState(me?.full_name ?? '');
  const [timezone, setTimezone] = useState(String(settings.timezone ?? me?.timezone ?? ''));
  const { busy, message, run } = useAction();

  return (
    <>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void run(() => client.updateSettings({ full_name: fullName, timezone } as never));
        }}
      >
        <label>
          Full name
          <input type="text" value={fullName} required onInput={(event) => setFullName((event.currentTarget as HTMLInputElement).value)} />
        </label>
        <label>
          Time zone
          <select value={timezone} onChange={(event) => setTimezone((event.currentTarget as HTMLSelectElement).value)}>
            <option value="">(not set)</option>
            {timeZones().map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={busy}>
          Save profile
        </button>
      </form>
      <div class="avatar-settings">
        {me && <Avatar url={me.avatar_url} name={me.full_name} userId={me.user_id} size={64} />}
        <label>
          Upload avatar
          <input
            type="file"
            accept="image/*"
            onChange={(event) => {
              const file = (event.currentTarget as HTMLInputElement).files?.[0];
              if (file) void run(() => client.uploadAvatar({} as never, { files: file }), 'Avatar updated.');
            }}
          />
        </label>
        <button type="button" onClick={() => void run(() => client.deleteAvatar(), 'Avatar removed.')}>
          Remove avatar
        </button>
      </div>
      <ActionMessage message={message} />
    </>
  );
}
