/** A lean keep-alive HTTP/1.1 client for the load generator (node:http, not fetch, to keep client cost low). */
import { Agent, request } from 'node:http';

export interface HttpClient {
  /** Sends a request and resolves with the parsed JSON envelope; rejects unless it is a success. */
  call(method: string, path: string, form?: Record<string, string>): Promise<Record<string, unknown>>;
  close(): void;
}

export function httpClient(baseUrl: string, email: string, apiKey: string, maxSockets: number): HttpClient {
  const agent = new Agent({ keepAlive: true, maxSockets });
  const base = new URL(baseUrl);
  const authorization = `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}`;
  return {
    call(method, path, form) {
      const body = form ? new URLSearchParams(form).toString() : undefined;
      const headers: Record<string, string> = { authorization };
      if (body !== undefined) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        headers['content-length'] = String(Buffer.byteLength(body));
      }
      return new Promise((resolve, reject) => {
        const req = request(
          { agent, host: base.hostname, port: base.port, method, path: `/api/v1${path}`, headers },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              try {
                const envelope = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
                if (res.statusCode !== 200 || envelope.result !== 'success') {
                  reject(new Error(`${res.statusCode}: ${envelope.msg}`));
                } else resolve(envelope);
              } catch (error) {
                reject(error);
              }
            });
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    },
    close: () => agent.destroy(),
  };
}
