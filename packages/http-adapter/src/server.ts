import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Ctx } from '@teamchat/core';
import { toNodeHandler } from 'h3';
import { type AppOptions, createApp } from './app.js';

export interface RunningServer {
  server: Server;
  /** Base URL, for example `http://127.0.0.1:9991`. */
  url: string;
  /** Stops accepting connections, lets requests in flight finish, then closes the database. */
  close(): Promise<void>;
}

export interface ServeOptions extends AppOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
}

/** Serves the app over node:http. */
export async function serve(ctx: Ctx, options: ServeOptions = {}): Promise<RunningServer> {
  const app = createApp(ctx, options);
  const server = createServer(toNodeHandler(app));
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 9991, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    server,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        await ctx.storage.close();
      })();
      return closing;
    },
  };
}
