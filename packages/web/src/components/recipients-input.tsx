/** Direct-message recipients: chosen people as removable chips, and a text box that suggests people as one types. */
import { useMemo, useState } from 'preact/hooks';
import { useWorkspace } from '../app-context';
import { rankByName } from '../lib/autocomplete';
import { personName } from '../lib/names';
import { useStore } from '../lib/use-store';

export function RecipientsInput({ userIds, onChange }: { userIds: number[]; onChange: (userIds: number[]) => void }) {
  const { chat } = useWorkspace();
  const people = useStore(chat.people);
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState(0);
  const suggestions = useMemo(() => {
    if (!query.trim()) return [];
    const candidates = [...people.values()].filter((person) => person.is_active && !userIds.includes(person.user_id));
    return rankByName(candidates, (person) => `${person.full_name} ${person.email}`, query.trim());
  }, [query, people, userIds]);

  const add = (id: number) => {
    onChange([...userIds, id]);
    setQuery('');
    setSelected(0);
  };

  return (
    <div class="recipients">
      <ul class="chips" aria-label="Chosen people">
        {userIds.map((id) => (
          <li key={id}>
            {personName(people, id)}
            <button type="button" aria-label={`Remove ${personName(people, id)}`} onClick={() => onChange(userIds.filter((other) => other !== id))}>
              ×
            </button>
          </li>
        ))}
      </ul>
      <input
        type="text"
        aria-label="Recipients"
        placeholder="Add a person"
        aria-controls={suggestions.length > 0 ? 'recipient-suggestions' : undefined}
        aria-autocomplete="list"
        value={query}
        onInput={(event) => setQuery((event.currentTarget as HTMLInputElement).value)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            if (suggestions.length > 0) setSelected((index) => (index + (event.key === 'ArrowDown' ? 1 : -1) + suggestions.length) % suggestions.length);
          } else if ((event.key === 'Enter' || event.key === 'Tab' || event.key === ',') && suggestions.length > 0) {
            event.preventDefault();
            add((suggestions[selected] ?? suggestions[0]!).user_id);
          } else if (event.key === 'Enter') {
            event.preventDefault();
          } else if (event.key === 'Backspace' && query === '' && userIds.length > 0) {
            onChange(userIds.slice(0, -1));
          }
        }}
      />
      {suggestions.length > 0 && (
        <div id="recipient-suggestions" role="listbox" aria-label="People" class="suggestions">
          {suggestions.map((person, index) => (
            <div
              key={person.user_id}
              role="option"
              tabIndex={-1}
              aria-selected={index === selected}
              onMouseDown={(event) => {
                event.preventDefault();
                add(person.user_id);
              }}
            >
              {person.full_name} ({person.email})
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
