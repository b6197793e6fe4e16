/** The connection status, announced politely: empty while connected, "Reconnecting…" while the queue is down. */
import { useWorkspace } from '../app-context';
import { useStore } from '../lib/use-store';

export function ConnectionBanner() {
  const status = useStore(useWorkspace().status);
  return (
    <div role="status" class={`connection ${status}`}>
      {status === 'reconnecting' ? 'Reconnecting…' : ''}
    </div>
  );
}
