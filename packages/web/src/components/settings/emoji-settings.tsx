/** Administrators: the organization's custom emoji (upload and deactivate). */
import { useState } from 'preact/hooks';
import { useWorkspace } from '../../app-context';
import { useStore } from '../../lib/use-store';
import { ActionMessage, useAction } from './use-action';

export function EmojiSettings() {
  const { client, chat } = useWorkspace();
  const realmEmoji = useStore(chat.realmEmoji);
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | undefined>();
  const { busy, message, run } = useAction();
  const active = Object.values(realmEmoji).filter((emoji) => !emoji.deactivated);

  return (
    <>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (file) void run(() => client.addRealmEmoji({ emoji_name: name } as never, { files: file }), 'Emoji added.');
        }}
      >
        <label>
          Emoji name
          <input type="text" value={name} required pattern="[a-z0-9_\-]+" onInput={(event) => setName((event.currentTarget as HTMLInputElement).value)} />
        </label>
        <label>
          Emoji image
          <input type="file" accept="image/*" required onChange={(event) => setFile((event.currentTarget as HTMLInputElement).files?.[0])} />
        </label>
        <button type="submit" disabled={busy}>
          Add emoji
        </button>
      </form>
      <ActionMessage message={message} />
      <ul class="emoji-list">
        {active.map((emoji) => (
          <li key={emoji.id}>
            <img class="emoji" src={emoji.source_url} alt="" /> :{emoji.name}:{' '}
            <button type="button" onClick={() => void run(() => client.deactivateRealmEmoji({ emoji_name: emoji.name }), 'Emoji deactivated.')}>
              Deactivate :{emoji.name}:
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
