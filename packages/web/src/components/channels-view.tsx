/**
 * The channels the user may see (GET /streams: public ones and their own), to open, join or
 * leave, and a form to create one (subscribing to a new name creates it, where the realm allows).
 * The sidebar follows joins and leaves through the queue's subscription events.
 */
import { useEffect, useState } from 'preact/hooks';
import { useWorkspace } from '../app-context';
import { useStore } from '../lib/use-store';
import { viewToHash } from '../narrow/hash';
import { ActionMessage, useAction } from './settings/use-action';

interface Channel {
  stream_id: number;
  name: string;
  description: string;
  invite_only: boolean;
}

export function ChannelsView() {
  const { client, chat } = useWorkspace();
  const subscriptions = useStore(chat.subscriptions);
  const [channels, setChannels] = useState<Channel[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [name, setName] = useState('');
  const { busy, message, run } = useAction();

  // Fetched again after each join or leave: a new channel joins the list, a private one left may leave it.
  useEffect(() => {
    client.getStreams({} as never).then(
      (answer) => setChannels((answer as unknown as { streams: Channel[] }).streams.sort((a, b) => a.name.localeCompare(b.name))),
      (failure: Error) => setError(failure.message),
    );
  }, [client, subscriptions]);

  const join = (channel: string) => run(() => client.subscribe({ subscriptions: [{ name: channel }] } as never), `Joined #${channel}.`);
  const leave = (channel: string) => run(() => client.unsubscribe({ subscriptions: [channel] } as never), `Left #${channel}.`);

  return (
    <section class="channels-view" aria-labelledby="view-title">
      <h1 id="view-title" class="view-title">
        Channels
      </h1>
      <form
        aria-label="Create a channel"
        onSubmit={(event) => {
          event.preventDefault();
          const wanted = name.trim();
          if (wanted) void join(wanted).then(() => setName(''));
        }}
      >
        <label>
          New channel
          <input type="text" value={name} maxLength={60} onInput={(event) => setName((event.currentTarget as HTMLInputElement).value)} />
        </label>
        <button type="submit" disabled={busy || name.trim() === ''}>
          Create
        </button>
      </form>
      <ActionMessage message={message} />
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {channels === undefined && !error && <p class="loading-more">Loading channels…</p>}
      {channels && (
        <ul aria-label="All channels">
          {channels.map((channel) => {
            const joined = subscriptions.has(channel.stream_id);
            return (
              <li key={channel.stream_id}>
                <a href={viewToHash({ kind: 'channel', channelId: channel.stream_id }, () => channel.name)}>
                  {channel.invite_only ? '🔒 ' : '#'}
                  {channel.name}
                </a>
                {channel.description && <span class="description"> {channel.description}</span>}
                <button type="button" disabled={busy} aria-label={`${joined ? 'Leave' : 'Join'} ${channel.name}`} onClick={() => void (joined ? leave : join)(channel.name)}>
                  {joined ? 'Leave' : 'Join'}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
