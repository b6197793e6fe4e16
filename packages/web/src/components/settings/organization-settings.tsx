/** Administrators: the organization's name and description. */
import { useState } from 'preact/hooks';
import { useWorkspace } from '../../app-context';
import { useStore } from '../../lib/use-store';
import { ActionMessage, useAction } from './use-action';

export function OrganizationSettings() {
  const { client, chat } = useWorkspace();
  const realm = useStore(chat.realm);
  const [name, setName] = useState(String(realm.name ?? ''));
  const [description, setDescription] = useState(String(realm.description ?? ''));
  const { busy, message, run } = useAction();
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void run(() => client.updateRealm({ name, description } as never));
      }}
    >
      <label>
        Organization name
        <input type="text" value={name} required onInput={(event) => setName((event.currentTarget as HTMLInputElement).value)} />
      </label>
      <label>
        Organization description
        <textarea value={description} rows={4} onInput={(event) => setDescription((event.currentTarget as HTMLTextAreaElement).value)} />
      </label>
      <button type="submit" disabled={busy}>
        Save organization
      </button>
      <ActionMessage message={message} />
    </form>
  );
}
