/**
 * A person's avatar: their uploaded image, or their initials on a colour derived from their ID.
 * The app asks the server not to spell out Gravatar URLs (`client_gravatar`) and draws those
 * avatars itself, so a tab never contacts a third party: teams often self-host precisely to
 * avoid that, and a lookup of an unreachable host must not slow the page down.
 */
import { useEffect, useState } from 'preact/hooks';
import { useWorkspace } from '../app-context';
import { initialsOf, serverAvatarPath } from '../lib/avatar';
import { uploadBlobUrl } from '../lib/upload-files';

function useAvatarSrc(url: string | null | undefined): string | undefined {
  const { client } = useWorkspace();
  const path = url ? serverAvatarPath(url) : undefined;
  const [blob, setBlob] = useState<string | undefined>();
  useEffect(() => {
    setBlob(undefined);
    if (path) uploadBlobUrl(client, path).then(setBlob, () => undefined);
  }, [path, client]);
  return path ? blob : (url ?? undefined);
}

export function Avatar({ url, name, userId, size = 36 }: { url: string | null | undefined; name: string; userId: number; size?: number }) {
  const src = useAvatarSrc(url);
  if (src) return <img class="avatar" src={src} alt="" width={size} height={size} loading="lazy" />;
  return (
    <span class="avatar initials" aria-hidden="true" style={{ width: `${size}px`, height: `${size}px`, background: `hsl(${(userId * 67) % 360} 45% 45%)` }}>
      {initialsOf(name)}
    </span>
  );
}
