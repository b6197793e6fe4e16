/** The organization's people with their presence (active, idle, offline), each a link to a direct conversation. */
import { useEffect, useState } from 'preact/hooks';
import { useWorkspace } from '../app-context';
import { useStore } from '../lib/use-store';
import { viewToHash } from '../narrow/hash';
import { type PresenceStatus, presenceStatus } from '../stores/presence';

const ORDER: Record<PresenceStatus, number> = { active: 0, idle: 1, offline: 2 };

export function PeopleList() {
  const { chat, state } = useWorkspace();
  const people = useStore(chat.people);
  const presence = useStore(chat.presence);
  const [nowSeconds, setNowSeconds] = useState(Date.now() / 1000);
  useEffect(() => {
    const timer = setInterval(() => setNowSeconds(Date.now() / 1000), 30_000);
    return () => clearInterval(timer);
  }, []);
  const threshold = Number(state.server_presence_offline_threshold_seconds ?? 140);
  const shown = [...people.values()]
    .filter((person) => person.is_active && !person.is_bot)
    .map((person) => ({ person, status: presenceStatus(presence.get(person.user_id), nowSeconds, threshold) }))
    .sort((a, b) => ORDER[a.status] - ORDER[b.status] || a.person.full_name.localeCompare(b.person.full_name));

  return (
    <nav aria-label="People">
      <h2>People</h2>
      <ul>
        {shown.map(({ person, status }) => (
          <li key={person.user_id}>
            <a href={viewToHash({ kind: 'dm', userIds: [person.user_id] })} title={`${person.full_name} (${status})`}>
              <span class={`presence ${status}`} aria-hidden="true" />
              {person.full_name}
              <span class="visually-hidden"> ({status})</span>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
