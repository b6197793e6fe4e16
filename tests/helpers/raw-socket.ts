/**
 * A bare TCP client for requests node:http or fetch will not send: no Host header, half-sent
 * headers, a body dripped a byte at a time. It records what the server sends and when it closes.
 */
import { connect, type Socket } from 'node:net';

export interface RawClient {
  socket: Socket;
  /** Everything received so far. */
  received(): string;
  /** Resolves once the server has closed (or reset) the connection, with everything received. */
  closed: Promise<string>;
  write(data: string | Buffer): Promise<void>;
}

/** Opens a connection to the server at `url` (`http://127.0.0.1:port`). */
export async function openRaw(url: string): Promise<RawClient> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const received = () => Buffer.concat(chunks).toString('utf8');
  const closed = new Promise<string>((resolve) => {
    socket.on('error', () => undefined);
    socket.once('close', () => resolve(received()));
  });
  return {
    socket,
    received,
    closed,
    write: (data) =>
      new Promise<void>((resolve) => {
        if (socket.destroyed) return resolve();
        socket.write(data, () => resolve());
      }),
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  // biome-ignore lint/suspicious/noExplicitAny: checked field by field in the tests.
  body: any;
  text: string;
}

/** The first HTTP response in `raw` (status, lower-cased headers, JSON body). */
export function parseRawResponse(raw: string): RawResponse {
  const split = raw.indexOf('\r\n\r\n');
  if (split < 0) throw new Error(`no complete HTTP response in ${JSON.stringify(raw.slice(0, 200))}`);
  const [statusLine, ...lines] = raw.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let text = raw.slice(split + 4);
  if (headers['content-length'] !== undefined) text = text.slice(0, Number(headers['content-length']));
  else if (headers['transfer-encoding'] === 'chunked') text = unchunk(text);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body, text };
}

/** The payload of a chunked body. */
function unchunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const eol = rest.indexOf('\r\n');
    const size = Number.parseInt(rest.slice(0, eol), 16);
    if (eol < 0 || !(size > 0)) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}

/** Waits `ms` milliseconds. */
export const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
