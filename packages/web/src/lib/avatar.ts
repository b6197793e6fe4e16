/** Avatar helpers without a DOM: which avatar URLs go through the client, and initials for the rest. */

/**
 * Uploaded avatars are served to signed-in users only (and the server's 401 would open the
 * browser's password dialog): they are fetched by the client and shown from blob URLs. The
 * path is taken alone, since the URL names the realm, which is the server this tab talks to.
 */
export function serverAvatarPath(url: string): string | undefined {
  const parsed = new URL(url, 'http://relative.invalid');
  return parsed.pathname.startsWith('/user_avatars/') && !parsed.pathname.includes('/emoji/') ? parsed.pathname + parsed.search : undefined;
}

export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0]![0], words.at(-1)![0]] : [words[0]?.[0]];
  return letters.join('').toUpperCase();
}
