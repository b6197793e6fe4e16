/**
 * The host name of a realm URL. Dummy addresses (`user{id}@host`) are built for every user a
 * message or user list formats, so the URL is parsed once per distinct URL, not per user.
 */
const hostnames = new Map<string, string>();

/** Realm URLs are few; past this many distinct ones the memo starts over. */
const MEMO_LIMIT = 256;

export function realmHostname(url: string): string {
  let hostname = hostnames.get(url);
  if (hostname === undefined) {
    hostname = new URL(url).hostname;
    if (hostnames.size >= MEMO_LIMIT) hostnames.clear();
    hostnames.set(url, hostname);
  }
  return hostname;
}
