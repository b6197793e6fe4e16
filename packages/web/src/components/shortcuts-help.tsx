/** The keyboard shortcuts, listed in a dialog opened with `?` (as in the reference). */
import { useEffect, useRef } from 'preact/hooks';

export const SHORTCUTS: Array<[string, string]> = [
  ['c', 'Compose a message'],
  ['x', 'New direct message'],
  ['r or Enter', 'Reply to the selected message'],
  ['/', 'Search'],
  ['n', 'Next unread topic'],
  ['j / ↓, k / ↑', 'Select the next or previous message'],
  ['*', 'Star the selected message'],
  ['Esc', 'Leave a text box or close a dialog'],
  ['?', 'This list'],
];

export function ShortcutsHelp({ onClose }: { onClose: () => void }) {
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => close.current?.focus(), []);
  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-label="Keyboard shortcuts"
      class="shortcuts-help"
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose();
      }}
    >
      <h2>Keyboard shortcuts</h2>
      <dl>
        {SHORTCUTS.map(([keys, action]) => (
          <div key={keys}>
            <dt>
              <kbd>{keys}</kbd>
            </dt>
            <dd>{action}</dd>
          </div>
        ))}
      </dl>
      <button type="button" ref={close} onClick={onClose}>
        Close
      </button>
    </div>
  );
}
