/** What every component of a signed-in workspace reaches: the client, the chat's stores and navigation. */
import type { Client } from '@teamchat/client';
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Store } from './lib/store';
import type { View } from './narrow/view';
import type { Session } from './session/auth';
import type { ConnectionStatus } from './session/live';
import type { Chat, RegisterSnapshot } from './stores/chat';

export interface Workspace {
  client: Client;
  session: Session;
  chat: Chat;
  state: RegisterSnapshot;
  status: Store<ConnectionStatus>;
  view: Store<View>;
  navigate(view: View): void;
  signOut(): void;
  /** The compose box's request to open (a reply, a new DM, `c`): bumped to focus it. */
  composeRequest: Store<ComposeRequest | undefined>;
}

export interface ComposeRequest {
  to: { kind: 'channel'; channelId: number; topic: string } | { kind: 'dm'; userIds: number[] };
  /** Text to add (a quote). */
  insert?: string;
  serial: number;
}

export const WorkspaceContext = createContext<Workspace | undefined>(undefined);

export function useWorkspace(): Workspace {
  const workspace = useContext(WorkspaceContext);
  if (!workspace) throw new Error('useWorkspace outside a workspace');
  return workspace;
}
