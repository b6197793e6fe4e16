/**
 * Derives the client's endpoint table from the server's route table (ROUTES) and the core
 * operations' schemas: one entry per route and method, with the wire facts a client needs.
 * Pure: generate.ts writes what `renderEndpoints` returns, and the drift test compares it.
 */
import * as core from '@teamchat/core';
import { FILE_ROUTES, REDIRECT_ROUTES, ROUTES, type Route } from '@teamchat/http-adapter';

type Method = keyof Route['methods'];

/** One endpoint as the generated file describes it. */
export interface EndpointEntry {
  /** camelCase client method name, from the operation's export name. */
  name: string;
  /** The operation's export name in @teamchat/core (the source of the input and result types). */
  operation: string;
  method: Method;
  /** The path template under /api/v1, with `{name}` and `{+name}` placeholders. */
  path: string;
  pathParams: string[];
  /** Parameters whose form text the server parses as JSON: the client JSON-encodes them. */
  json: string[];
  /** Parameters the server fills in when absent: optional for a caller even though typed as required. */
  defaulted: string[];
  auth: 'required' | 'optional' | 'none';
  /** `json`: an API endpoint under /api/v1 answering the JSON envelope; `file` / `redirect`: a GET outside it answering bytes / a redirect. */
  response: 'json' | 'file' | 'redirect';
}

/** A route as this module reads it: the API's routes, and the file and redirect routes outside /api/v1. */
export interface TableRoute {
  path: string;
  methods: Route['methods'];
  response: EndpointEntry['response'];
}

/** The server's three route tables as one list, API routes first. */
export function serverRoutes(): TableRoute[] {
  return [
    ...ROUTES.map((r) => ({ path: r.path, methods: r.methods, response: 'json' as const })),
    ...FILE_ROUTES.map((r) => ({ path: r.path, methods: { GET: r.operation }, response: 'file' as const })),
    ...REDIRECT_ROUTES.map((r) => ({ path: r.path, methods: { GET: r.operation }, response: 'redirect' as const })),
  ];
}

/** Method order inside one route, so that the output does not depend on object key order. */
const METHOD_ORDER: readonly Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The name each core export is known by, keyed by the exported value (the routes hold the values). */
function operationNames(): Map<unknown, string> {
  const names = new Map<unknown, string>();
  for (const [name, value] of Object.entries(core)) if (typeof value === 'function' && !names.has(value)) names.set(value, name);
  return names;
}

/** `doSendMessage` → `sendMessage`; `getMessages` stays. */
export function methodNameOf(operation: string): string {
  const m = /^do([A-Z])(.*)$/.exec(operation);
  return m ? m[1]!.toLowerCase() + m[2] : operation;
}

const pascal = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');

/** Placeholder names of a path template, in order: `/users/{user_id}` → `['user_id']`. */
export const pathParamsOf = (path: string) => [...path.matchAll(/\{\+?([a-z_]+)\}/g)].map((m) => m[1]!);

/** The static segments of a path, for telling apart routes that share an operation. */
const staticSegments = (path: string) => path.split('/').filter((s) => s && !s.startsWith('{'));

interface FieldStruct {
  coercer(value: unknown, ctx: unknown): unknown;
}

const COERCE_CONTEXT = { branch: [], path: [] };

function coerced(field: FieldStruct, value: unknown): unknown {
  try {
    return field.coercer(value, COERCE_CONTEXT);
  } catch {
    return value;
  }
}

/**
 * Wire facts of an operation's parameters, read from its schema's coercers: a parameter is
 * JSON-typed when its coercer turns the text `"x"` into something else (it parsed it), and
 * defaulted when its coercer turns `undefined` into a value.
 */
function parameterFacts(operation: { params: { schema: unknown } }): { json: string[]; defaulted: string[] } {
  const schema = operation.params.schema;
  if (typeof schema !== 'object' || schema === null) return { json: [], defaulted: [] };
  const json: string[] = [];
  const defaulted: string[] = [];
  for (const [name, field] of Object.entries(schema as Record<string, FieldStruct>)) {
    if (typeof field?.coercer !== 'function') continue;
    if (coerced(field, '"x"') !== '"x"') json.push(name);
    if (coerced(field, undefined) !== undefined) defaulted.push(name);
  }
  return { json: json.sort(), defaulted: defaulted.sort() };
}

/**
 * Every route and method of `routes`, named. A name two endpoints would share (one operation
 * serving several paths or methods) goes unchanged to the first in table order; later ones add
 * the path's static segments their first path lacks, then the method, so names are stable.
 */
export function endpointEntries(routes: readonly TableRoute[] = serverRoutes()): EndpointEntry[] {
  const names = operationNames();
  const entries: EndpointEntry[] = [];
  const taken = new Map<string, EndpointEntry>();
  for (const route of routes) {
    for (const method of METHOD_ORDER) {
      const op = route.methods[method];
      if (!op) continue;
      const operation = names.get(op);
      if (!operation) throw new Error(`${method} ${route.path}: its operation is not exported by @teamchat/core`);
      const base = methodNameOf(operation);
      let name = base;
      const first = taken.get(base);
      if (first) {
        const known = new Set(staticSegments(first.path));
        const extra = pascal(staticSegments(route.path).filter((s) => !known.has(s)).join('_'));
        name = base + extra;
        if (taken.has(name)) name += pascal(method.toLowerCase());
        for (let n = 2; taken.has(name); n++) name = `${base}${extra}${n}`;
      }
      const entry: EndpointEntry = {
        name,
        operation,
        method,
        path: route.path,
        pathParams: pathParamsOf(route.path),
        ...parameterFacts(op),
        auth: op.auth,
        response: route.response,
      };
      taken.set(name, entry);
      entries.push(entry);
    }
  }
  return entries;
}

const list = (items: readonly string[]) => `[${items.map((s) => `'${s}'`).join(', ')}]`;
const union = (items: readonly string[]) => (items.length === 0 ? 'never' : items.map((s) => `'${s}'`).join(' | '));

/** The text of src/generated/endpoints.ts. */
export function renderEndpoints(entries: readonly EndpointEntry[] = endpointEntries()): string {
  const specs = entries.map(
    (e) =>
      `  ${e.name}: { method: '${e.method}', path: '${e.path}', pathParams: ${list(e.pathParams)}, json: ${list(e.json)}, auth: '${e.auth}', response: '${e.response}' },`,
  );
  const types = entries.map(
    (e) => `  ${e.name}: ${e.response === 'json' ? 'Endpoint' : 'FileEndpoint'}<typeof core.${e.operation}, ${union(e.defaulted)}, ${union(e.pathParams)}>;`,
  );
  return `/**
 * Every endpoint of the server's route table (http-adapter ROUTES), generated by
 * scripts/generate.ts from the routes and the core operations' schemas. Do not edit: change the
 * server, then run \`pnpm generate\`. A test fails when this file is stale.
 */
import type * as core from '@teamchat/core';
import type { Endpoint, EndpointSpec, FileEndpoint } from '../endpoint.js';

/** Method, path template, path parameters, JSON-encoded parameters, auth mode and response kind of each endpoint. */
export const ENDPOINTS = {
${specs.join('\n')}
} as const satisfies Record<string, EndpointSpec>;

/** Input and result types of each endpoint, from its core operation (type-only). */
export interface Endpoints {
${types.join('\n')}
}
`;
}
