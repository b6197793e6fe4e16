/**
 * URL handling for links in messages: the reference's `sanitize_url` (an allow-list of schemes,
 * so `javascript:` and friends never become links), its rewriting of links into the realm to
 * relative ones, and the `#narrow` URL encodings.
 */

// The WHATWG "safelisted" schemes plus the web ones (lib/markdown `allowed_schemes`).
const ALLOWED_SCHEMES = new Set([
  'http', 'https', 'ftp', 'file', 'bitcoin', 'geo', 'im', 'irc', 'ircs', 'magnet', 'mailto', 'matrix',
  'mms', 'news', 'nntp', 'openpgp4fpr', 'sip', 'sms', 'smsto', 'ssh', 'tel', 'urn', 'webcal', 'wtai', 'xmpp',
]);

// Schemes whose URLs get `//` before an empty authority when put back together (Python's
// urllib.parse.uses_netloc, restricted to the allowed schemes).
const USES_NETLOC = new Set(['http', 'https', 'ftp', 'file', 'mms', 'nntp']);

interface SplitUrl {
  scheme: string;
  netloc: string;
  path: string;
  query: string;
  fragment: string;
}

/** Python's `urlsplit`, which the reference's rules are written against. */
export function splitUrl(input: string): SplitUrl {
  // Like urlsplit: leading controls and spaces go, and tabs and newlines anywhere (as browsers do).
  let rest = input.replace(/^[\u0000-\u0020]+/, '').replace(/[\t\r\n]/g, '');
  let scheme = '';
  const colon = rest.indexOf(':');
  if (colon > 0 && /^[A-Za-z][A-Za-z0-9+.-]*$/.test(rest.slice(0, colon))) {
    scheme = rest.slice(0, colon).toLowerCase();
    rest = rest.slice(colon + 1);
  }
  let netloc = '';
  if (rest.startsWith('//')) {
    const end = rest.slice(2).search(/[/?#]/);
    netloc = end === -1 ? rest.slice(2) : rest.slice(2, end + 2);
    rest = end === -1 ? '' : rest.slice(end + 2);
  }
  let fragment = '';
  const hash = rest.indexOf('#');
  if (hash !== -1) [rest, fragment] = [rest.slice(0, hash), rest.slice(hash + 1)];
  let query = '';
  const question = rest.indexOf('?');
  if (question !== -1) [rest, query] = [rest.slice(0, question), rest.slice(question + 1)];
  return { scheme, netloc, path: rest, query, fragment };
}

/** Python's `urlunsplit` (empty query and fragment are dropped, as there). */
function joinUrl({ scheme, netloc, path, query, fragment }: SplitUrl): string {
  let url = path;
  if (netloc || (scheme && USES_NETLOC.has(scheme) && !url.startsWith('//'))) {
    if (url && !url.startsWith('/')) url = `/${url}`;
    url = `//${netloc}${url}`;
  }
  if (scheme) url = `${scheme}:${url}`;
  if (query) url = `${url}?${query}`;
  if (fragment) url = `${url}#${fragment}`;
  return url;
}

/**
 * The href a link target may have, or null when it must stay text. Scheme-less targets become
 * `http://` (or `mailto:` when they look like an address), domain-relative paths and bare
 * fragments are kept, and only the allowed schemes pass.
 */
export function sanitizeUrl(url: string): string | null {
  const parts = splitUrl(url.replace(/ /g, '%20'));
  const { scheme, netloc, path, query, fragment } = parts;
  if (!scheme && !netloc && path.includes('@')) {
    parts.scheme = 'mailto';
  } else if (!scheme && !netloc && path.startsWith('/')) {
    return joinUrl(parts);
  } else if (!scheme && !netloc && !path && !query && fragment) {
    return joinUrl(parts);
  }
  if (!parts.scheme) return sanitizeUrl(`http://${url}`);
  if (!ALLOWED_SCHEMES.has(parts.scheme)) return null;
  return joinUrl(parts);
}

/** Links to the realm's own narrows and uploads open in place: `https://realm/#narrow/…` → `#narrow/…`. */
export function relativeToRealm(realmUrl: string, href: string): string {
  const prefix = `${realmUrl}/`;
  if (href.startsWith(`${prefix}#`) || href.startsWith(`${prefix}user_uploads/`)) return href.slice(prefix.length);
  return href;
}

/** Python's `quote(text, safe="")`: everything but letters, digits and `_.-~` is percent-encoded. */
export function quoteAll(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The `#narrow` encoding of one component: percent-encoding with `.` in place of `%`. */
export function hashEncode(text: string): string {
  return quoteAll(text).replace(/\./g, '%2E').replace(/%/g, '.');
}

/** A channel's `#narrow/channel/` operand: `42-my-channel`. */
export function channelSlug(id: number, name: string): string {
  return `${id}-${hashEncode(name.replace(/ /g, '-'))}`;
}
