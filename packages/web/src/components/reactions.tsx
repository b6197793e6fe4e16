/** A message's reactions: one toggle button per emoji with its count, who reacted in the tooltip; and "Add reaction". */
import { useState } from 'preact/hooks';
import { useWorkspace } from '../app-context';
import { glyphOf } from '../lib/emoji';
import { personName } from '../lib/names';
import { useStore } from '../lib/use-store';
import { groupReactions } from '../stores/message-list';
import type { Message } from '../stores/types';
import { EmojiPicker } from './emoji-picker';

export function Reactions({ message }: { message: Message }) {
  const { client, chat } = useWorkspace();
  const people = useStore(chat.people);
  const realmEmoji = useStore(chat.realmEmoji);
  const [picking, setPicking] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const groups = groupReactions(message.reactions);

  const toggle = (emojiName: string, emojiCode: string, reactionType: string, mine: boolean) => {
    setError(undefined);
    const params = { message_id: message.id, emoji_name: emojiName, emoji_code: emojiCode, reaction_type: reactionType };
    const call = mine ? client.removeReaction(params as never) : client.addReaction(params as never);
    call.catch((failure: Error) => setError(failure.message));
  };

  return (
    <div class="reactions">
      {groups.map((group) => {
        const mine = group.userIds.includes(chat.ownId);
        const imageUrl = group.reactionType === 'realm_emoji' ? realmEmoji[group.emojiCode]?.source_url : undefined;
        return (
          <button
            key={`${group.reactionType}:${group.emojiCode}`}
            type="button"
            class="reaction"
            aria-pressed={mine}
            aria-label={`${group.emojiName} ${group.userIds.length}`}
            title={`${group.userIds.map((id) => personName(people, id)).join(', ')} reacted with :${group.emojiName}:`}
            onClick={() => toggle(group.emojiName, group.emojiCode, group.reactionType, mine)}
          >
            {imageUrl ? <img class="emoji" src={imageUrl} alt="" /> : <span aria-hidden="true">{glyphOf(group.emojiCode)}</span>}{' '}
            <span aria-hidden="true">{group.userIds.length}</span>
          </button>
        );
      })}
      <button type="button" class="add-reaction" aria-label="Add reaction" title="Add reaction" aria-expanded={picking} onClick={() => setPicking(!picking)}>
        +🙂
      </button>
      {picking && (
        <EmojiPicker
          onClose={() => setPicking(false)}
          onPick={(choice) => {
            setPicking(false);
            const mine = message.reactions.some((reaction) => reaction.user_id === chat.ownId && reaction.emoji_code === choice.code);
            toggle(choice.name, choice.code, choice.reactionType, mine);
          }}
        />
      )}
      {error && (
        <span role="alert" class="error">
          {error}
        </span>
      )}
    </div>
  );
}
