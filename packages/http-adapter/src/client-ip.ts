/**
 * The client's network address, which the core limits logins by. Transport decoding only: the
 * limits themselves live in the core (auth/login-limits.ts).
 */

/** A request as srvx's Node bridge hands it over: `ip` is the connection's peer address. */
type RequestWithPeer = Request & { ip?: string };

/**
 * The connection's peer, or, behind `trustedProxyHops` reverse proxies (`config.trustedProxyHops`),
 * the address the outermost of them saw: the `trustedProxyHops`-th entry of X-Forwarded-For from
 * the right, since each proxy appends the address it was contacted from and only those appended
 * by our own proxies can be believed. With 0 the header is ignored: any client can write it.
 */
export function clientIpOf(request: RequestWithPeer, trustedProxyHops: number): string | null {
  const peer = request.ip ?? null;
  if (trustedProxyHops <= 0) return peer;
  const forwarded = request.headers.get('x-forwarded-for');
  if (!forwarded) return peer;
  const hops = forwarded.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  if (hops.length === 0) return peer;
  // Fewer entries than proxies: the request skipped some of them; the leftmost is the best known.
  return hops[Math.max(0, hops.length - trustedProxyHops)]!;
}
