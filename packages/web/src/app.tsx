/** The top level: the sign-in form until there is a session, then the workspace. */
import { useState } from 'preact/hooks';
import { SignIn } from './components/sign-in';
import { WorkspaceView } from './components/workspace';
import { type Session, clearSession, loadSession, saveSession } from './session/auth';

export function App() {
  const [session, setSession] = useState<Session | undefined>(() => loadSession(sessionStorage));
  if (!session) {
    return (
      <SignIn
        onSignedIn={(next) => {
          saveSession(sessionStorage, next);
          setSession(next);
        }}
      />
    );
  }
  return (
    <WorkspaceView
      session={session}
      onSignedOut={() => {
        clearSession(sessionStorage);
        setSession(undefined);
      }}
    />
  );
}
