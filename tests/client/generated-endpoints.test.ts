/**
 * The client's endpoint table against the server's route table: the committed file is what the
 * generator writes now (no drift), and every route and method has a client method.
 */
import { readFileSync } from 'node:fs';
import { createClient, ENDPOINTS } from '@teamchat/client';
import { FILE_ROUTES, REDIRECT_ROUTES, ROUTES } from '@teamchat/http-adapter';
import { describe, expect, it } from 'vitest';
import { endpointEntries, methodNameOf, renderEndpoints } from '../../packages/client/scripts/endpoint-table.js';
import { ENDPOINTS_FILE } from '../../packages/client/scripts/generate.js';

describe('generated endpoints', () => {
  it('the committed src/generated/endpoints.ts is what the generator writes from the current routes', () => {
    const committed = readFileSync(ENDPOINTS_FILE, 'utf8');
    // toBe's diff shows what changed; the message says how to fix it.
    expect(committed, 'packages/client/src/generated/endpoints.ts is stale: run `npx -y pnpm@10 run generate` (pnpm generate) and commit the result').toBe(renderEndpoints());
  });

  it('every method of every API, file and redirect route has a client method with its path and method', () => {
    const client = createClient({ url: 'http://localhost' }) as unknown as Record<string, unknown>;
    const specs = Object.values(ENDPOINTS);
    const routes = [
      ...ROUTES.flatMap((r) => Object.keys(r.methods).map((method) => ({ method, path: r.path, response: 'json' }))),
      ...FILE_ROUTES.map((r) => ({ method: 'GET', path: r.path, response: 'file' })),
      ...REDIRECT_ROUTES.map((r) => ({ method: 'GET', path: r.path, response: 'redirect' })),
    ];
    for (const route of routes) {
      expect(specs.filter((s) => s.method === route.method && s.path === route.path && s.response === route.response), `${route.method} ${route.path}`).toHaveLength(1);
    }
    expect(specs).toHaveLength(routes.length);
    for (const name of Object.keys(ENDPOINTS)) expect(typeof client[name], name).toBe('function');
  });

  it('names methods after operations, and tells apart one operation on several paths or methods', () => {
    expect(methodNameOf('doSendMessage')).toBe('sendMessage');
    expect(methodNameOf('getMessages')).toBe('getMessages');
    expect(methodNameOf('doubleCheck')).toBe('doubleCheck');
    expect(ENDPOINTS.updateSettings.path).toBe('/settings');
    expect(ENDPOINTS.updateSettingsDisplay.path).toBe('/settings/display');
    expect(ENDPOINTS.getMatchesNarrow.method).toBe('GET');
    expect(ENDPOINTS.getMatchesNarrowPost.method).toBe('POST');
    const names = endpointEntries().map((e) => e.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('reads from the schemas which parameters are JSON on the wire, defaulted, or in the path', () => {
    const send = endpointEntries().find((e) => e.name === 'sendMessage')!;
    expect(send.json).toEqual(['read_by_sender']);
    const fetch = endpointEntries().find((e) => e.name === 'getMessages')!;
    expect(fetch.json).toEqual(expect.arrayContaining(['narrow', 'num_before', 'include_anchor', 'message_ids']));
    expect(fetch.json).not.toContain('anchor');
    expect(fetch.defaulted).toEqual(expect.arrayContaining(['narrow', 'apply_markdown']));
    expect(ENDPOINTS.getSubscriptionStatus.pathParams).toEqual(['user_id', 'stream_id']);
    expect(ENDPOINTS.getFileTemporaryUrl.pathParams).toEqual(['realm_id', 'filename']);
  });
});
