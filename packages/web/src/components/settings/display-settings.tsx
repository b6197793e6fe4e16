/** The user's display settings: theme and clock. */
import { useWorkspace } from '../../app-context';
import { useStore } from '../../lib/use-store';
import { ActionMessage, useAction } from './use-action';

/** The API's color_scheme values. */
export const COLOR_SCHEMES = [
  [1, 'Automatic (follow the system)'],
  [2, 'Dark'],
  [3, 'Light'],
] as const;

export function DisplaySettings() {
  const { client, chat } = useWorkspace();
  const settings = useStore(chat.userSettings);
  const { message, run } = useAction();
  const save = (patch: Record<string, unknown>) => void run(() => client.updateSettings(patch as never));

  return (
    <form onSubmit={(event) => event.preventDefault()}>
      <label>
        Theme
        <select value={String(settings.color_scheme ?? 1)} onChange={(event) => save({ color_scheme: Number((event.currentTarget as HTMLSelectElement).value) })}>
          {COLOR_SCHEMES.map(([value, label]) => (
            <option key={value} value={String(value)}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label class="checkbox">
        <input
          type="checkbox"
          checked={settings.twenty_four_hour_time === true}
          onChange={(event) => save({ twenty_four_hour_time: (event.currentTarget as HTMLInputElement).checked })}
        />
        24-hour time
      </label>
      <label class="checkbox">
        <input
          type="checkbox"
          checked={settings.starred_message_counts === true}
          onChange={(event) => save({ starred_message_counts: (event.currentTarget as HTMLInputElement).checked })}
        />
        Show counts for starred messages
      </label>
      <ActionMessage message={message} />
    </form>
  );
}
