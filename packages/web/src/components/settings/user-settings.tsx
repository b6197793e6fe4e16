/** Administrators: the organization's users, their roles, deactivation and reactivation. */
import { useWorkspace } from '../../app-context';
import { useStore } from '../../lib/use-store';
import { ROLE } from '../../stores/types';
import { ActionMessage, useAction } from './use-action';

const ROLES = [
  [ROLE.owner, 'Owner'],
  [ROLE.admin, 'Administrator'],
  [ROLE.moderator, 'Moderator'],
  [ROLE.member, 'Member'],
  [ROLE.guest, 'Guest'],
] as const;

export function UserSettings() {
  const { client, chat } = useWorkspace();
  const people = useStore(chat.people);
  const { message, run } = useAction();
  const humans = [...people.values()].filter((person) => !person.is_bot).sort((a, b) => a.full_name.localeCompare(b.full_name));
  return (
    <>
      <ActionMessage message={message} />
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {humans.map((person) => (
            <tr key={person.user_id}>
              <td>{person.full_name}</td>
              <td>{person.email}</td>
              <td>
                <select
                  aria-label={`Role of ${person.full_name}`}
                  value={String(person.role)}
                  disabled={person.user_id === chat.ownId}
                  onChange={(event) =>
                    void run(() => client.updateUser({ user_id: person.user_id, role: Number((event.currentTarget as HTMLSelectElement).value) } as never), 'Role changed.')
                  }
                >
                  {ROLES.map(([value, label]) => (
                    <option key={value} value={String(value)}>
                      {label}
                    </option>
                  ))}
                </select>
              </td>
              <td>
                {person.is_active ? (
                  <button
                    type="button"
                    disabled={person.user_id === chat.ownId}
                    onClick={() => {
                      if (confirm(`Deactivate ${person.full_name}?`)) void run(() => client.deactivateUser({ user_id: person.user_id }), 'User deactivated.');
                    }}
                  >
                    Deactivate {person.full_name}
                  </button>
                ) : (
                  <button type="button" onClick={() => void run(() => client.reactivateUser({ user_id: person.user_id }), 'User reactivated.')}>
                    Reactivate {person.full_name}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
