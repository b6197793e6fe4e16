/**
 * The hand-written loopback client, for what autocannon cannot express: a thousand held long
 * polls, requests sent on a fixed schedule (open loop), and the JSON calls that set a run up.
 * node:http with keep-alive agents, so that the client's own cost stays small.
 */
import { Agent, request } from 'node:http';
import { basicAuth, type Credentials } from './seed-world.js';

export interface Answer {
  status: number;
  body: Buffer;
}

export interface Call {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path and query, for example `/api/v1/users/me`. */
  path: string;
  credentials?: Credentials;
  /** Sent as application/x-www-form-urlencoded. */
  form?: Record<string, string>;
  /**
   * Called once the whole request has been written to a connected socket (the request's
   * `finish`): a connection whose SYN the server's full accept queue dropped is retried by the
   * kernel a second later, and only then is its request written.
   */
  written?: () => void;
}

/**
 * A keep-alive agent for `sockets` concurrent requests, each socket kept between requests (as
 * that many clients would each keep their connection; node's default keeps only 256 idle, so a
 * thousand long-polls would reconnect 744 times a round). Its idle sockets close after 4 s,
 * before node:http servers close them (keepAliveTimeout, 5 s), so that no request is sent on a
 * socket the server is closing; a request in flight (a held poll) is not affected.
 */
export const agentFor = (sockets: number) => new Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets, timeout: 4000 });

/** One request; resolves with the whole answer, whatever its status. */
export function send(baseUrl: string, agent: Agent, call: Call): Promise<Answer> {
  const base = new URL(baseUrl);
  const body = call.form ? new URLSearchParams(call.form).toString() : undefined;
  const headers: Record<string, string> = {};
  if (call.credentials) headers.authorization = basicAuth(call.credentials);
  if (body !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve, reject) => {
    const req = request({ agent, host: base.hostname, port: base.port, method: call.method, path: call.path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (call.written) req.once('finish', call.written);
    req.end(body);
  });
}

/** An API call that must succeed; resolves with its JSON envelope. */
export async function api(baseUrl: string, agent: Agent, call: Call): Promise<Record<string, unknown>> {
  const answer = await send(baseUrl, agent, call);
  const envelope = JSON.parse(answer.body.toString('utf8')) as Record<string, unknown>;
  if (answer.status !== 200 || envelope.result !== 'success') throw new Error(`${call.method} ${call.path}: ${answer.status} ${String(envelope.msg)}`);
  return envelope;
}
