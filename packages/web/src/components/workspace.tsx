/**
 * A signed-in tab: starts the event queue, follows the URL hash, and lays out the sidebar, the
 * open view and the connection status.
 */
import { isTransient } from '@teamchat/client';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { type ComposeRequest, type Workspace, WorkspaceContext, useWorkspace } from '../app-context';
import { createStore } from '../lib/store';
import { useStore } from '../lib/use-store';
import { hashToView, viewToHash } from '../narrow/hash';
import { type View, isMessageView } from '../narrow/view';
import { type Session, sessionClient } from '../session/auth';
import { createStatusStore, type Live, startLive, watchingFetch } from '../session/live';
import { installShortcuts } from '../lib/shortcuts';
import { ChannelsView } from './channels-view';
import { ConnectionBanner } from './connection-banner';
import { Header } from './header';
import { InboxView } from './inbox-view';
import { MessagePane } from './message-pane';
import { RecentView } from './recent-view';
import { SettingsView } from './settings-view';
import { ShortcutsHelp } from './shortcuts-help';
import { Sidebar } from './sidebar';

const HOME: View = { kind: 'feed' };
/** How long after a failed connection the tab tries again. */
const RETRY_MS = 5000;

function currentView(): View {
  return hashToView(location.hash) ?? HOME;
}

export function WorkspaceView({ session, onSignedOut }: { session: Session; onSignedOut: () => void }) {
  const status = useMemo(createStatusStore, []);
  const client = useMemo(() => sessionClient(location.origin, session, watchingFetch(status)), [session, status]);
  const [workspace, setWorkspace] = useState<Workspace | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  /** Bumped to try connecting again (by hand, or a few seconds after a failure). */
  const [attempt, setAttempt] = useState(0);
  const [reloads, setReloads] = useState(0);
  // The parent's callback may be a new function each render; the queue must not restart for it.
  const signedOut = useRef(onSignedOut);
  signedOut.current = onSignedOut;

  useEffect(() => {
    let live: Live | undefined;
    let cancelled = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const view = createStore<View>(currentView());
    const signOut = () => {
      void live?.stop();
      signedOut.current();
    };
    startLive(client, { status, onReregistered: () => setReloads((n) => n + 1), onUnauthorized: signOut }).then(
      (started) => {
        if (cancelled) {
          void started.stop();
          return;
        }
        live = started;
        setWorkspace({
          client,
          session,
          chat: started.chat,
          state: started.state,
          status,
          view,
          composeRequest: createStore<ComposeRequest | undefined>(undefined),
          navigate(next) {
            const hash = viewToHash(next, (id) => started.chat.subscriptions.get().get(id)?.name);
            if (location.hash !== hash) location.hash = hash;
            else view.set(next);
          },
          signOut,
        });
      },
      (error: { code?: string; status?: number; message?: string }) => {
        if (cancelled) return;
        if (error.status === 401 || error.code === 'UNAUTHORIZED' || error.code === 'USER_DEACTIVATED') signOut();
        else {
          setFailure(isTransient(error) ? 'the server is not answering' : (error.message ?? String(error)));
          retry = setTimeout(() => setAttempt((n) => n + 1), RETRY_MS);
        }
      },
    );
    const onHash = () => view.set(currentView());
    window.addEventListener('hashchange', onHash);
    return () => {
      cancelled = true;
      clearTimeout(retry);
      window.removeEventListener('hashchange', onHash);
      void live?.stop();
    };
  }, [client, status, session, attempt]);

  useEffect(() => (workspace ? installShortcuts(workspace) : undefined), [workspace]);

  if (!workspace) {
    return (
      <main class="loading">
        <p role="status">{failure ? `Could not connect: ${failure}. Trying again…` : 'Connecting…'}</p>
        {failure && (
          <p>
            <button type="button" onClick={() => setAttempt((n) => n + 1)}>
              Try again now
            </button>{' '}
            <button type="button" onClick={() => signedOut.current()}>
              Sign out
            </button>
          </p>
        )}
      </main>
    );
  }
  return (
    <WorkspaceContext.Provider value={workspace}>
      <Layout reloads={reloads} />
    </WorkspaceContext.Provider>
  );
}

/** The user's color_scheme: 1 follows the system (prefers-color-scheme), 2 dark, 3 light. */
function useTheme() {
  const settings = useStore(useWorkspace().chat.userSettings);
  useEffect(() => {
    const root = document.documentElement;
    if (settings.color_scheme === 2) root.dataset.theme = 'dark';
    else if (settings.color_scheme === 3) root.dataset.theme = 'light';
    else delete root.dataset.theme;
  }, [settings.color_scheme]);
}

function Layout({ reloads }: { reloads: number }) {
  const view = useStore(useWorkspace().view);
  useTheme();
  const [menuOpen, setMenuOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [view]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.key === '?' && !target?.closest('input, textarea, select, [contenteditable="true"]')) setHelpOpen(true);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return (
    <div class={`layout${menuOpen ? ' sidebar-open' : ''}`}>
      {/* A button, not a #main link: the hash is the router's. */}
      <button type="button" class="skip-link" onClick={() => document.getElementById('main')?.focus()}>
        Skip to the main view
      </button>
      {helpOpen && <ShortcutsHelp onClose={() => setHelpOpen(false)} />}
      <Header onToggleSidebar={() => setMenuOpen((open) => !open)} sidebarOpen={menuOpen} />
      <Sidebar />
      <main class="main" id="main" tabIndex={-1}>
        <ConnectionBanner />
        {view.kind === 'inbox' && <InboxView />}
        {view.kind === 'recent' && <RecentView />}
        {view.kind === 'settings' && <SettingsView section={view.section} />}
        {view.kind === 'channels' && <ChannelsView />}
        {isMessageView(view) && <MessagePane view={view} reloads={reloads} />}
      </main>
    </div>
  );
}
