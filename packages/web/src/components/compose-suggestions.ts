/** The compose box's autocomplete candidates for the `@person`, `#channel` or `:emoji` being typed at the caret. */
import { useMemo } from 'preact/hooks';
import { useWorkspace } from '../app-context';
import { type Trigger, findTrigger, markupFor, rankByName } from '../lib/autocomplete';
import { searchEmoji } from '../lib/emoji';
import { useStore } from '../lib/use-store';
import type { Subscription } from '../stores/types';
import { useEmojiChoices } from './emoji-picker';

export interface Suggestion {
  key: string;
  label: string;
  markup: string;
}

export function useSuggestions(content: string, caret: number, channels: readonly Subscription[]): { trigger: Trigger | undefined; suggestions: Suggestion[] } {
  const { chat } = useWorkspace();
  const people = useStore(chat.people);
  const emojiChoices = useEmojiChoices();
  const trigger = useMemo(() => findTrigger(content, caret), [content, caret]);
  const suggestions = useMemo(() => {
    if (!trigger) return [];
    if (trigger.kind === 'mention') {
      const active = [...people.values()].filter((person) => person.is_active);
      return rankByName(active, (person) => person.full_name, trigger.query).map((person) => ({
        key: `u${person.user_id}`,
        label: `${person.full_name} (${person.email})`,
        markup: markupFor('mention', person.full_name),
      }));
    }
    if (trigger.kind === 'channel') {
      return rankByName(channels, (channel) => channel.name, trigger.query).map((channel) => ({
        key: `c${channel.stream_id}`,
        label: `#${channel.name}`,
        markup: markupFor('channel', channel.name),
      }));
    }
    return searchEmoji(emojiChoices, trigger.query, 8).map((choice) => ({
      key: `e${choice.code}`,
      label: `${choice.glyph ?? ''} :${choice.name}:`,
      markup: markupFor('emoji', choice.name),
    }));
  }, [trigger, people, channels, emojiChoices]);
  return { trigger, suggestions };
}
