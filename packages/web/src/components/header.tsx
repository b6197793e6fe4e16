/** The top bar: the sidebar toggle (phones), the organization's name, search, settings and sign-out. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { useWorkspace } from '../app-context';
import { useStore } from '../lib/use-store';

export function Header({ onToggleSidebar, sidebarOpen }: { onToggleSidebar: () => void; sidebarOpen: boolean }) {
  const { chat, navigate, signOut, view: viewStore } = useWorkspace();
  const realm = useStore(chat.realm);
  const view = useStore(viewStore);
  const [query, setQuery] = useState(view.kind === 'search' ? view.query : '');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => setQuery(view.kind === 'search' ? view.query : ''), [view]);

  return (
    <header class="header">
      <button type="button" class="sidebar-toggle" aria-controls="sidebar" aria-expanded={sidebarOpen} onClick={onToggleSidebar}>
        Menu
      </button>
      <a class="realm-name" href="#inbox">
        {String(realm.name ?? 'teamchat')}
      </a>
      <search class="search">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const text = query.trim();
          if (text) navigate({ kind: 'search', query: text });
        }}
      >
        <input
          ref={input}
          id="search-input"
          type="search"
          aria-label="Search"
          placeholder="Search (e.g. channel:general is:starred lunch)"
          value={query}
          onInput={(event) => setQuery((event.currentTarget as HTMLInputElement).value)}
        />
      </form>
      </search>
      <nav class="account" aria-label="Account">
        <a href="#settings/profile">Settings</a>
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </nav>
    </header>
  );
}
