/**
 * Baseline of the long-poll figures: a bare node:http server that holds every GET (as GET
 * /events holds a poll) and, on `POST /release?bytes=N`, answers all held requests with an
 * N-byte JSON body, then answers the POST; `POST /held` answers how many it holds. With an IPC channel it also answers memory probes
 * (bench/memory-probe.ts). Prints `listening PORT`.
 */
import { createServer, type ServerResponse } from 'node:http';
import { answerMemoryProbes } from '../memory-probe.js';

let held: ServerResponse[] = [];
const server = createServer((request, response) => {
  if (request.method === 'GET') {
    held.push(response);
    return;
  }
  if (request.url === '/held') {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ held: held.length }));
    return;
  }
  const bytes = Number(new URL(request.url!, 'http://127.0.0.1').searchParams.get('bytes') ?? 2);
  const body = Buffer.from(`{${' '.repeat(Math.max(0, bytes - 2))}}`);
  const waiting = held;
  held = [];
  for (const poll of waiting) poll.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
  response.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"success"}');
});
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as { port: number }).port}`));
answerMemoryProbes(() => held.length);
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
