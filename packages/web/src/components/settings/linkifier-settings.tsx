/** Administrators: linkifiers (a pattern and the URL template its matches link to). */
import { useEffect, useState } from 'preact/hooks';
import { useWorkspace } from '../../app-context';
import { ActionMessage, useAction } from './use-action';

interface Linkifier {
  id: number;
  pattern: string;
  url_template: string;
}

export function LinkifierSettings() {
  const { client } = useWorkspace();
  const [linkifiers, setLinkifiers] = useState<Linkifier[]>([]);
  const [pattern, setPattern] = useState('');
  const [template, setTemplate] = useState('');
  const { busy, message, run } = useAction();
  const refresh = () =>
    client.getLinkifiers().then(
      (answer) => setLinkifiers((answer as unknown as { linkifiers: Linkifier[] }).linkifiers),
      () => undefined,
    );
  useEffect(() => void refresh(), [client]);

  return (
    <>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void run(async () => {
            await client.addLinkifier({ pattern, url_template: template } as never);
            setPattern('');
            setTemplate('');
            await refresh();
          }, 'Linkifier added.');
        }}
      >
        <label>
          Pattern
          <input type="text" value={pattern} required placeholder="#(?P<id>[0-9]+)" onInput={(event) => setPattern((event.currentTarget as HTMLInputElement).value)} />
        </label>
        <label>
          URL template
          <input
            type="text"
            value={template}
            required
            placeholder="https://github.com/org/repo/issues/{id}"
            onInput={(event) => setTemplate((event.currentTarget as HTMLInputElement).value)}
          />
        </label>
        <button type="submit" disabled={busy}>
          Add linkifier
        </button>
      </form>
      <ActionMessage message={message} />
      <ul>
        {linkifiers.map((linkifier) => (
          <li key={linkifier.id}>
            <code>{linkifier.pattern}</code> → <code>{linkifier.url_template}</code>{' '}
            <button
              type="button"
              onClick={() =>
                void run(async () => {
                  await client.removeLinkifier({ filter_id: linkifier.id });
                  await refresh();
                }, 'Linkifier removed.')
              }
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
