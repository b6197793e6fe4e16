/**
 * Baseline of the read figures: a bare h3 `serve()` answering every request with the bytes the
 * product answered (argument: a file holding them), as JSON. Prints `listening PORT`.
 */
import { readFileSync } from 'node:fs';
import { h3 } from './h3.js';

const bytes = readFileSync(process.argv[2]!);
const { H3, serve } = await h3();
const app = new H3().all('/**', () => new Response(bytes, { headers: { 'content-type': 'application/json' } }));
const server = serve(app, { port: 0, hostname: '127.0.0.1', silent: true });
await server.ready();
console.log(`listening ${new URL(server.url!).port}`);
process.on('SIGTERM', () => void server.close(true).then(() => process.exit(0)));
