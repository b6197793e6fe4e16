/**
 * Requests of the permission matrix, sent through `createApp(ctx).fetch` (no sockets). A request
 * is plain data (method, path, form values, files) so the matrix can print it, search it for the
 * names it carries and send it again as any caller to either realm.
 */
import type { Ctx, User } from '@teamchat/core';
import { createApp } from '@teamchat/http-adapter';

/** One API request: the path is under /api/v1 and already has its placeholders filled. */
export interface MatrixRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  /** Form values: sent as the query string for GET, as a urlencoded body otherwise. */
  form?: Record<string, string>;
  /** The path is outside /api/v1 (files and redirects served beside the API). */
  outsideApi?: boolean;
  /** A file to send as multipart (the form values travel in the same body). */
  file?: { name: string; bytes: Uint8Array<ArrayBuffer>; type: string };
}

/** Who sends a request: a user (their Basic credentials), a literal header, or nobody. */
export type Credentials = Pick<User, 'deliveryEmail' | 'apiKey'> | string | null;

export interface MatrixResponse {
  status: number;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: bodies are inspected field by field.
  body: any;
  /** The redirect target, for the avatar redirects. */
  location: string | null;
}

export type Send = (host: string, credentials: Credentials, request: MatrixRequest) => Promise<MatrixResponse>;

/** A sender bound to one context's app; every request goes through the same route table as a server. */
export function sender(ctx: Ctx): Send {
  const app = createApp(ctx, { onInternalError: () => undefined });
  return async (host, credentials, request) => {
    const headers: Record<string, string> = { host };
    if (credentials !== null) {
      headers.authorization =
        typeof credentials === 'string'
          ? credentials
          : `Basic ${Buffer.from(`${credentials.deliveryEmail}:${credentials.apiKey}`, 'utf8').toString('base64')}`;
    }
    const values = request.form ?? {};
    let url = `http://${host}${request.outsideApi ? '' : '/api/v1'}${request.path}`;
    let body: BodyInit | undefined;
    if (request.file) {
      const data = new FormData();
      for (const [name, value] of Object.entries(values)) data.append(name, value);
      data.append('file', new Blob([request.file.bytes], { type: request.file.type }), request.file.name);
      body = data;
    } else if (request.method === 'GET') {
      const query = new URLSearchParams(values).toString();
      if (query) url += `?${query}`;
    } else if (Object.keys(values).length > 0) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(values).toString();
    }
    const response = await app.fetch(new Request(url, { method: request.method, headers, body }));
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, text, body: parsed, location: response.headers.get('location') };
  };
}

/** The request as one line of text, for failure messages and for finding the names it carries. */
export const describeRequest = (r: MatrixRequest) =>
  `${r.method} ${r.path}${r.form ? ` ${new URLSearchParams(r.form).toString()}` : ''}${r.file ? ` [file ${r.file.name}]` : ''}`;
