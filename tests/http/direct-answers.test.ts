/**
 * Success answers are written straight to node's response (respond.ts `writeSuccess`), failures
 * still through srvx's bridge: both must reach the client as the same kind of bytes. Checked on
 * the wire: the status line, the header names in order, content-length in bytes (not
 * characters), keep-alive, HEAD, and a long-poll woken by a message with non-ASCII text.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { authOf, closeServers, startServer, type TestServer } from '../helpers/http.js';
import { openRaw, pause } from '../helpers/raw-socket.js';

afterEach(closeServers);

interface WireAnswer {
  statusLine: string;
  headerNames: string[];
  headers: Record<string, string>;
  body: Buffer;
}

/** Splits the answers on one connection, body lengths taken from content-length (in bytes). */
function answers(raw: Buffer): WireAnswer[] {
  const out: WireAnswer[] = [];
  let rest = raw;
  while (rest.length > 0) {
    const split = rest.indexOf('\r\n\r\n');
    if (split < 0) break;
    const [statusLine, ...lines] = rest.subarray(0, split).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    const headerNames = lines.map((line) => {
      const name = line.slice(0, line.indexOf(':'));
      headers[name.toLowerCase()] = line.slice(name.length + 1).trim();
      return name;
    });
    const length = Number(headers['content-length'] ?? 0);
    out.push({ statusLine: statusLine!, headerNames, headers, body: rest.subarray(split + 4, split + 4 + length) });
    rest = rest.subarray(split + 4 + length);
  }
  return out;
}

/** Sends `requests` on one keep-alive connection and waits for `count` answers. */
async function exchange(server: TestServer, requests: string[], count: number, during?: () => Promise<void>): Promise<WireAnswer[]> {
  const client = await openRaw(server.url);
  const chunks: Buffer[] = [];
  client.socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  for (const request of requests) await client.write(request);
  await during?.();
  for (let waited = 0; answers(Buffer.concat(chunks)).length < count && waited < 5000; waited += 10) await pause(10);
  client.socket.destroy();
  return answers(Buffer.concat(chunks));
}

const get = (path: string, auth?: string, method = 'GET') =>
  `${method} /api/v1${path} HTTP/1.1\r\nHost: chat.example.com\r\n${auth ? `Authorization: ${auth}\r\n` : ''}\r\n`;

const BRIDGE_HEADERS = ['content-type', 'cache-control', 'content-length', 'Date', 'Connection', 'Keep-Alive'];

describe('success answers written directly', () => {
  it('carry the status line and headers, in order, of answers written through the bridge', async () => {
    const server = await startServer();
    const auth = authOf(server.world.owner);
    const [settings, ignored, failed, head] = await exchange(
      server,
      [get('/server_settings'), get('/server_settings?unknown_thing=1'), get('/users/me/nothing-here', auth), get('/server_settings', undefined, 'HEAD')],
      4,
    );
    // The failure went through srvx's bridge: the direct answers match it.
    expect(failed!.statusLine).toBe('HTTP/1.1 404 ');
    expect(failed!.headerNames).toEqual(BRIDGE_HEADERS);
    for (const answer of [settings!, ignored!]) {
      expect(answer.statusLine).toBe('HTTP/1.1 200 ');
      expect(answer.headerNames).toEqual(BRIDGE_HEADERS);
      expect(answer.headers['content-type']).toBe('application/json');
      expect(answer.headers['cache-control']).toBe('no-store, no-cache, must-revalidate, max-age=0');
      expect(answer.body.toString('utf8').endsWith('}\n')).toBe(true);
    }
    expect(JSON.parse(settings!.body.toString('utf8')).result).toBe('success');
    expect(JSON.parse(ignored!.body.toString('utf8')).ignored_parameters_unsupported).toEqual(['unknown_thing']);
    // HEAD keeps the bridge's answer: headers only, no content-length.
    expect(head!.statusLine).toBe('HTTP/1.1 200 ');
    expect(head!.headerNames).toEqual(['cache-control', 'content-type', 'Date', 'Connection', 'Keep-Alive']);
  });

  it('write the envelope in pieces whose bytes are counted apart: ASCII data, non-ASCII data, a non-ASCII ignored name', async () => {
    const server = await startServer();
    const auth = authOf(server.world.owner);
    const renamed = await fetch(server.api('/settings'), {
      method: 'PATCH',
      headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ full_name: 'Zoë ✓ 😀' }),
    });
    expect(renamed.status).toBe(200);
    // Pipelined on one connection: a length off by a byte would misplace every later answer.
    const replies = await exchange(
      server,
      [get('/server_settings'), get('/users/me', auth), get(`/server_settings?${encodeURIComponent('ünknown_✓')}=1&plain=2`), get('/users/me', auth)],
      4,
    );
    expect(replies).toHaveLength(4);
    const texts = replies.map((reply) => {
      expect(reply.statusLine).toBe('HTTP/1.1 200 ');
      expect(reply.headerNames).toEqual(BRIDGE_HEADERS);
      expect(Number(reply.headers['content-length'])).toBe(reply.body.length);
      const text = reply.body.toString('utf8');
      // The whole body, byte for byte, is what JSON.stringify makes of it (plus the newline).
      expect(text).toBe(`${JSON.stringify(JSON.parse(text))}\n`);
      expect(text.startsWith('{"result":"success","msg":"",')).toBe(true);
      return text;
    });
    expect(JSON.parse(texts[1]!).full_name).toBe('Zoë ✓ 😀');
    expect(JSON.parse(texts[2]!).ignored_parameters_unsupported).toEqual(['plain', 'ünknown_✓']);
    expect(texts[3]).toBe(texts[1]);
  });

  it('answer a woken long-poll with its length in bytes', async () => {
    const server = await startServer();
    const owner = server.world.owner;
    const auth = authOf(owner);
    const registered = await fetch(server.api('/register'), {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'event_types=["message"]',
    });
    const { queue_id: queueId } = (await registered.json()) as { queue_id: string };
    const content = 'héllo ✓ 😀';
    const [poll] = await exchange(server, [get(`/events?queue_id=${queueId}&last_event_id=-1`, auth)], 1, async () => {
      await pause(50);
      const sent = await fetch(server.api('/messages'), {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ type: 'direct', to: `[${owner.id}]`, content }),
      });
      expect(sent.status).toBe(200);
    });
    expect(poll!.statusLine).toBe('HTTP/1.1 200 ');
    expect(poll!.headerNames).toEqual(BRIDGE_HEADERS);
    expect(Number(poll!.headers['content-length'])).toBe(poll!.body.length);
    const body = JSON.parse(poll!.body.toString('utf8')) as { result: string; queue_id: string; events: Array<{ type: string; message: { content: string } }> };
    expect(body.result).toBe('success');
    expect(body.queue_id).toBe(queueId);
    expect(body.events.map((e) => e.type)).toEqual(['message']);
    expect(body.events[0]!.message.content).toContain('héllo ✓ 😀');
  });

  it('answer the polls of one fan-out with the same bytes but their queue IDs, whichever clients left first', async () => {
    const server = await startServer();
    const owner = server.world.owner;
    const auth = authOf(owner);
    const register = async () => {
      const registered = await fetch(server.api('/register'), {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'event_types=["message"]',
      });
      return ((await registered.json()) as { queue_id: string }).queue_id;
    };
    const sendMessage = async (content: string) => {
      const sent = await fetch(server.api('/messages'), {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ type: 'direct', to: `[${owner.id}]`, content }),
      });
      expect(sent.status).toBe(200);
    };
    // Three queues get a first message, which their polls acknowledge; three are registered after it.
    const queueIds: string[] = [];
    for (let i = 0; i < 3; i++) queueIds.push(await register());
    await sendMessage('first ✓');
    for (let i = 0; i < 3; i++) queueIds.push(await register());
    const clients = await Promise.all(queueIds.map(() => openRaw(server.url)));
    const chunks = clients.map(() => [] as Buffer[]);
    for (const [i, client] of clients.entries()) client.socket.on('data', (chunk: Buffer) => chunks[i]!.push(chunk));
    for (const [i, client] of clients.entries()) await client.write(get(`/events?queue_id=${queueIds[i]}&last_event_id=${i < 3 ? 0 : -1}`, auth));
    await pause(50);
    // Two clients go away while their polls wait.
    clients[1]!.socket.destroy();
    clients[4]!.socket.destroy();
    await sendMessage('second ✓');
    const kept = [0, 2, 3, 5];
    for (let waited = 0; kept.some((i) => answers(Buffer.concat(chunks[i]!)).length < 1) && waited < 5000; waited += 10) await pause(10);
    const polled = kept.map((i) => answers(Buffer.concat(chunks[i]!))[0]!);
    for (const [k, answer] of polled.entries()) {
      expect(answer.statusLine).toBe('HTTP/1.1 200 ');
      expect(answer.headerNames).toEqual(BRIDGE_HEADERS);
      expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
      const text = answer.body.toString('utf8');
      // The whole body, byte for byte, is what JSON.stringify makes of it (plus the newline).
      expect(text).toBe(`${JSON.stringify(JSON.parse(text))}\n`);
      expect(JSON.parse(text).queue_id).toBe(queueIds[kept[k]!]);
    }
    // Apart from the queue's ID, the same bytes for the queues at the same event ID.
    const bodies = polled.map((answer, k) => answer.body.toString('utf8').replace(queueIds[kept[k]!]!, 'QUEUE'));
    expect(bodies[1]).toBe(bodies[0]);
    expect(bodies[3]).toBe(bodies[2]);
    expect(bodies[2]).toBe(bodies[0]!.replace('"id":1}', '"id":0}'));
    const events = (text: string) => (JSON.parse(text) as { events: { id: number; message: { content: string } }[] }).events.map((e) => [e.id, e.message.content]);
    expect(events(bodies[0]!)).toEqual([[1, expect.stringContaining('second ✓')]]);
    expect(events(bodies[2]!)).toEqual([[0, expect.stringContaining('second ✓')]]);
    for (const client of clients) client.socket.destroy();
    // The server goes on serving.
    expect((await fetch(server.api('/server_settings'))).status).toBe(200);
  });

  it('close the connection when the server shuts down with a poll waiting', async () => {
    const server = await startServer();
    const auth = authOf(server.world.owner);
    const registered = await fetch(server.api('/register'), { method: 'POST', headers: { authorization: auth } });
    const { queue_id: queueId } = (await registered.json()) as { queue_id: string };
    const client = await openRaw(server.url);
    await client.write(get(`/events?queue_id=${queueId}&last_event_id=-1`, auth));
    await pause(50);
    await server.close();
    const [answer] = answers(Buffer.from(await client.closed, 'utf8'));
    expect(answer!.statusLine).toBe('HTTP/1.1 200 ');
    expect(answer!.headers.connection).toBe('close');
    expect(JSON.parse(answer!.body.toString('utf8')).events).toEqual([]);
  });
});
