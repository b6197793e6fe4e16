/**
 * A person's avatar: their uploaded image, or their initials on a colour derived from their ID.
 * The app asks the server not to spell out Gravatar URLs (`client_gravatar`) and draws those
 * avatars itself, so a tab never contacts a third party: teams often self-host precisely to
 * avoid that, and a lookup of an unreachable host must not slow the page down.
 */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0]![0], words.at(-1)![0]] : [words[0]?.[0]];
  return letters.join('').toUpperCase();
}

export function Avatar({ url, name, userId, size = 36 }: { url: string | null | undefined; name: string; userId: number; size?: number }) {
  if (url) return <img class="avatar" src={url} alt="" width={size} height={size} loading="lazy" />;
  return (
    <span class="avatar initials" aria-hidden="true" style={{ width: `${size}px`, height: `${size}px`, background: `hsl(${(userId * 67) % 360} 45% 45%)` }}>
      {initialsOf(name)}
    </span>
  );
}
