/**
 * The server of the memory figures: the CLI's own data directory and http-adapter `serve()`, in
 * a process started with --expose-gc and an IPC channel so that the suite can ask it for its
 * memory between steps (bench/memory-probe.ts). Argument: the data directory. Prints
 * `listening PORT`.
 */
import { serve } from '@teamchat/http-adapter';
import { openDataDir } from '../packages/cli/src/data-dir.js';
import { answerMemoryProbes } from './memory-probe.js';

const ctx = openDataDir(process.argv[2]!);
const running = await serve(ctx, { host: '127.0.0.1', port: 0, shutdownTimeoutMs: 1000 });
console.log(`listening ${new URL(running.url).port}`);
answerMemoryProbes();
process.on('SIGTERM', () => void running.close().then(() => process.exit(0)));
