/** A settings action's state: busy while the request runs, then a confirmation or the server's error. */
import { useState } from 'preact/hooks';

export function useAction() {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | undefined>();
  const run = async (action: () => Promise<unknown>, done = 'Saved.') => {
    setBusy(true);
    setMessage(undefined);
    try {
      await action();
      setMessage({ ok: true, text: done });
    } catch (failure) {
      setMessage({ ok: false, text: (failure as Error).message });
    } finally {
      setBusy(false);
    }
  };
  return { busy, message, run };
}

export function ActionMessage({ message }: { message: { ok: boolean; text: string } | undefined }) {
  if (!message) return null;
  return message.ok ? (
    <p role="status" class="ok">
      {message.text}
    </p>
  ) : (
    <p role="alert" class="error">
      {message.text}
    </p>
  );
}
