/** The emoji picker: a dialog with a search box and a grid of emoji buttons named by emoji name. */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useWorkspace } from '../app-context';
import { type EmojiChoice, loadUnicodeEmoji, realmChoices, searchEmoji } from '../lib/emoji';
import { useStore } from '../lib/use-store';

export function EmojiGlyph({ choice }: { choice: Pick<EmojiChoice, 'glyph' | 'imageUrl' | 'name'> }) {
  if (choice.imageUrl) return <img class="emoji" src={choice.imageUrl} alt="" />;
  return (
    <span class="emoji" aria-hidden="true">
      {choice.glyph}
    </span>
  );
}

export function useEmojiChoices(): EmojiChoice[] {
  const { client, chat, state } = useWorkspace();
  const realmEmoji = useStore(chat.realmEmoji);
  const [unicode, setUnicode] = useState<EmojiChoice[]>([]);
  useEffect(() => {
    loadUnicodeEmoji(client, state.server_emoji_data_url as string | undefined).then(setUnicode);
  }, [client, state]);
  return useMemo(() => [...realmChoices(realmEmoji), ...unicode], [realmEmoji, unicode]);
}

export function EmojiPicker({ onPick, onClose }: { onPick: (choice: EmojiChoice) => void; onClose: () => void }) {
  const choices = useEmojiChoices();
  const [query, setQuery] = useState('');
  const search = useRef<HTMLInputElement>(null);
  useEffect(() => search.current?.focus(), []);
  const shown = useMemo(() => searchEmoji(choices, query), [choices, query]);

  return (
    <div
      role="dialog"
      aria-label="Emoji picker"
      class="emoji-picker"
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onClose();
        }
      }}
    >
      <input
        ref={search}
        type="search"
        aria-label="Search emoji"
        placeholder="Search emoji"
        value={query}
        onInput={(event) => setQuery((event.currentTarget as HTMLInputElement).value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && shown[0]) {
            event.preventDefault();
            onPick(shown[0]);
          }
        }}
      />
      <div class="emoji-grid">
        {shown.map((choice) => (
          <button key={`${choice.reactionType}:${choice.code}`} type="button" aria-label={choice.name} title={`:${choice.name}:`} onClick={() => onPick(choice)}>
            <EmojiGlyph choice={choice} />
          </button>
        ))}
        {shown.length === 0 && <p>No emoji match.</p>}
      </div>
      <button type="button" class="close" onClick={onClose}>
        Close
      </button>
    </div>
  );
}
