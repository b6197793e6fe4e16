/** Administrators: invitations by email, and the ones still pending (revocable). */
import { useEffect, useState } from 'preact/hooks';
import { useWorkspace } from '../../app-context';
import { useStore } from '../../lib/use-store';
import { ROLE } from '../../stores/types';
import { ActionMessage, useAction } from './use-action';

interface Invite {
  id: number;
  email?: string;
  invited_as: number;
  is_multiuse: boolean;
  expiry_date: number | null;
}

export function InviteSettings() {
  const { client, chat } = useWorkspace();
  const subscriptions = useStore(chat.subscriptions);
  const [emails, setEmails] = useState('');
  const [inviteAs, setInviteAs] = useState<number>(ROLE.member);
  const [invites, setInvites] = useState<Invite[]>([]);
  const { busy, message, run } = useAction();
  const refresh = () =>
    client.getInvites().then(
      (answer) => setInvites((answer as unknown as { invites: Invite[] }).invites),
      () => undefined,
    );
  useEffect(() => void refresh(), [client]);

  return (
    <>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void run(async () => {
            await client.inviteUsers({
              invitee_emails: emails,
              invite_as: inviteAs,
              stream_ids: [...subscriptions.keys()].slice(0, 1),
              invite_expires_in_minutes: 60 * 24 * 10,
            } as never);
            setEmails('');
            await refresh();
          }, 'Invitations sent.');
        }}
      >
        <label>
          Emails to invite (comma or newline separated)
          <textarea value={emails} rows={3} required onInput={(event) => setEmails((event.currentTarget as HTMLTextAreaElement).value)} />
        </label>
        <label>
          Invite as
          <select value={String(inviteAs)} onChange={(event) => setInviteAs(Number((event.currentTarget as HTMLSelectElement).value))}>
            <option value={String(ROLE.member)}>Member</option>
            <option value={String(ROLE.moderator)}>Moderator</option>
            <option value={String(ROLE.admin)}>Administrator</option>
            <option value={String(ROLE.guest)}>Guest</option>
          </select>
        </label>
        <button type="submit" disabled={busy}>
          Send invitations
        </button>
      </form>
      <ActionMessage message={message} />
      <h3>Pending invitations</h3>
      {invites.length === 0 ? (
        <p>None.</p>
      ) : (
        <ul>
          {invites.map((invite) => (
            <li key={`${invite.is_multiuse}-${invite.id}`}>
              {invite.email ?? 'Invitation link'}{' '}
              <button
                type="button"
                onClick={() =>
                  void run(async () => {
                    if (invite.is_multiuse) await client.revokeMultiuseInvite({ invite_id: invite.id } as never);
                    else await client.revokeInvite({ invite_id: invite.id } as never);
                    await refresh();
                  }, 'Invitation revoked.')
                }
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
