/**
 * Serves an existing database file for the message benchmarks and sends the URL and the
 * owner's credentials to the parent over IPC. Argument: the database file.
 * BENCH_SYNCHRONOUS=normal opens it with synchronous = NORMAL instead of the default FULL.
 */
import { createContext } from '@teamchat/core';
import { serve } from '@teamchat/http-adapter';

const synchronous = process.env.BENCH_SYNCHRONOUS === 'normal' ? 'normal' : 'full';
const ctx = createContext({ databaseFile: process.argv[2], sqlite: { synchronous } });
const owner = await ctx.storage.read(async (tx) => (await tx.users.list((await tx.realms.all())[0]!.id))[0]!);
const running = await serve(ctx, { port: 0, host: '127.0.0.1' });
process.send!({ url: running.url, email: owner.deliveryEmail, apiKey: owner.apiKey });
process.on('disconnect', () => void running.close().then(() => process.exit(0)));
