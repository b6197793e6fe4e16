/**
 * Garbage in every parameter of every channel and subscription endpoint: each answer is a clean
 * 4xx (or a success) envelope, never a 500, and nothing is reported as an internal error.
 */
import { ROUTES } from '@teamchat/http-adapter';
import { afterEach, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import { call, closeServers, form, startServer } from '../helpers/http.js';

afterEach(closeServers);

const GARBAGE = [
  '',
  ' ',
  'null',
  'true',
  '-1',
  '1e309',
  '9007199254740993',
  '"text"',
  '[',
  '{"a":',
  '[]',
  '{}',
  '[null]',
  '[{"name": null}]',
  '[{"name": "x", "description": 5}]',
  '[{"stream_id": 1, "property": "color", "value": []}]',
  '[1, "a"]',
  `${'['.repeat(2000)}${']'.repeat(2000)}`,
  '\u0000',
  'é'.repeat(300),
];

const CHANNEL_PATHS = /stream|subscription|default_streams/;

it('channel endpoints answer garbage with clean errors', async () => {
  const world = await makeWorld();
  const member = await world.addUser({ email: 'mel@example.com' });
  const internalErrors: unknown[] = [];
  const server = await startServer(world, { onInternalError: (error) => internalErrors.push(error) });
  const created = await call(server, 'POST', '/users/me/subscriptions', { auth: member, body: form({ subscriptions: '[{"name": "Denmark"}]' }) });
  expect(created.status).toBe(200);
  const routes = ROUTES.filter((route) => CHANNEL_PATHS.test(route.path));
  expect(routes.length).toBeGreaterThanOrEqual(7);
  for (const route of routes) {
    for (const [method, operation] of Object.entries(route.methods)) {
      const names = Object.keys(operation!.params.schema ?? {}).filter((name) => name !== 'stream_id' || !route.path.includes('{stream_id}'));
      for (const id of ['1', '0', '99999999999999999999', 'x', '-1']) {
        const path = route.path.replace('{stream_id}', id);
        for (const value of GARBAGE) {
          for (const name of names.length > 0 ? names : ['unused']) {
            const values = { [name]: value };
            const response =
              method === 'GET'
                ? await call(server, method, path, { auth: member, query: values })
                : await call(server, method, path, { auth: member, body: form(values) });
            const label = `${method} ${path} ${name}=${value.slice(0, 40)}`;
            expect(response.status, label).toBeLessThan(500);
            if (response.body.result === 'error') expect(response.body.code, label).toMatch(/^[A-Z_]+$/);
          }
        }
        if (!route.path.includes('{stream_id}')) break;
      }
    }
  }
  expect(internalErrors).toEqual([]);
}, 120_000);
