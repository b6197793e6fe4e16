/**
 * Generated requests for every route of the table. Parameter names come from each operation's
 * schema (`operation.params.schema`), so a new route is fuzzed without editing this file; the
 * path placeholders are filled with real IDs, IDs of the other realm and garbage; the method is
 * usually one the route declares, sometimes any other; the parameters travel in the query, a
 * urlencoded body, a multipart body or a body of a type the server does not read.
 */
import { FILE_ROUTES, REDIRECT_ROUTES, ROUTES } from '@teamchat/http-adapter';
import fc from 'fast-check';
import { ACTORS, type Actor, HOST, OTHER_HOST } from './fuzz-world.js';
import { anyText, anyValue, idText, type ParamStruct, plausibleValue, valueFor } from './param-values.js';

/** A request as plain data, so that fast-check prints it readably when a case fails. */
export interface FuzzRequest {
  kind: 'api' | 'file';
  template: string;
  method: string;
  path: string;
  host: string;
  actor: Actor;
  /** The Authorization header the `garbage` actor sends. */
  badAuth: string;
  params: [string, string][];
  placement: 'query' | 'form' | 'multipart' | 'json' | 'split';
  contentType?: string;
}

const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'PROPFIND'];

/** Percent-encodes text; a lone surrogate, which encodeURIComponent refuses, becomes the bytes of an encoded surrogate (never valid UTF-8). */
function encodeSegment(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...text].map((c) => (/^[\ud800-\udfff]$/.test(c) ? `%${c.charCodeAt(0) < 0xdc00 ? 'ED%A0' : 'ED%B0'}%80` : encodeURIComponent(c))).join('');
  }
}

/** A placeholder's value, raw (to be percent-encoded) or already encoded garbage. */
const segment = fc.oneof(
  { weight: 4, arbitrary: idText.map(encodeSegment) },
  { weight: 2, arbitrary: anyText.map(encodeSegment) },
  { weight: 1, arbitrary: fc.constantFrom('%zz', '%', '%E0%A4%A', '..', '.', '%2e%2e', 'a%2fb', 'me', '%00', 'x'.repeat(5000)) },
  { weight: 1, arbitrary: fc.constantFrom('1/2', 'a/b/c', 'narrow/is/starred', '1.png', 'emoji.png', 'emoji_api.json', 'abc/def.txt') },
);

function fillPath(template: string): fc.Arbitrary<string> {
  const names = [...template.matchAll(/\{\+?(\w+)\}/g)].map((m) => m[0]);
  if (names.length === 0) return fc.constant(template);
  return fc.tuple(...names.map(() => segment)).map((values) => {
    let path = template;
    for (const [i, name] of names.entries()) path = path.replace(name, () => values[i]!);
    return path;
  });
}

type Schema = Record<string, ParamStruct>;

function paramsFor(schema: Schema): fc.Arbitrary<[string, string][]> {
  const names = Object.keys(schema);
  // Cases send every declared parameter (so required ones are there), a subset, or only the
  // hinted ones with plausible values (so that some get through validation to the work).
  const named = (chosen: string[]): fc.Arbitrary<[string, string][]> =>
    fc.tuple(...chosen.map((name) => valueFor(name, schema[name]!).map((value): [string, string] => [name, value]))).map((pairs) => [...pairs]);
  const hinted = names.filter((name) => plausibleValue(name) !== undefined);
  const plausible = fc.tuple(...hinted.map((name) => plausibleValue(name)!.map((value): [string, string] => [name, value]))).map((pairs) => [...pairs]);
  const declared =
    names.length === 0 ? fc.constant<[string, string][]>([]) : fc.oneof(fc.constant(names).chain(named), fc.subarray(names).chain(named), plausible);
  // Undeclared names (reported as ignored), names of other routes and repeated names.
  const extra = fc.array(fc.tuple(fc.oneof(fc.constantFrom('client', 'queue_id', 'narrow', 'user_ids', '', '__proto__', 'constructor'), fc.string({ maxLength: 10 })), anyValue), { maxLength: 2 });
  return fc.tuple(declared, extra).map(([a, b]) => [...a, ...b]);
}

const b64 = (text: string) => Buffer.from(text, 'latin1').toString('base64');

/** Authorization headers that are malformed or name nobody. */
const badAuth = fc.constantFrom(
  'Basic Zm9vOmJhcg==',
  'Basic',
  'Basic ',
  'Bearer abc',
  'Basic !!!!',
  'Basic ====',
  `Basic ${b64('a:b:c')}`,
  `Basic ${b64(':')}`,
  `Basic ${b64('member@example.com:')}`,
  `Basic ${b64('\xff\xfe:\x00')}`,
  `Basic ${b64(`${'a'.repeat(100_000)}:key`)}`,
  `Basic ${'A'.repeat(200_000)}`,
  'Basic a b',
  'basic Zm9vOmJhcg==',
);

const common = {
  badAuth,
  host: fc.oneof({ weight: 12, arbitrary: fc.constant(HOST) }, { weight: 1, arbitrary: fc.constantFrom(OTHER_HOST, 'unknown.test', 'chat.example.com:99999', '') }),
  // Mostly real users of the realm, so that cases get past authentication to the operations.
  actor: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom<Actor>('owner', 'admin', 'member', 'member') },
    { weight: 1, arbitrary: fc.constantFrom(...ACTORS) },
  ),
  placement: fc.constantFrom('query', 'form', 'form', 'multipart', 'json', 'split'),
  contentType: fc.option(fc.constantFrom('text/plain', 'application/json', 'multipart/form-data', 'multipart/form-data; boundary=', 'application/x-www-form-urlencoded; charset=latin1'), { freq: 8 }),
};

const apiRoutes = ROUTES.flatMap((route) => {
  const declared = Object.entries(route.methods);
  return declared.map(([method, operation]) =>
    fc.record({
      kind: fc.constant('api' as const),
      template: fc.constant(route.path),
      method: fc.oneof({ weight: 5, arbitrary: fc.constant(method) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
      path: fillPath(route.path).map((p) => `/api/v1${p}`),
      params: paramsFor((operation!.params.schema ?? {}) as Schema),
      ...common,
      contentType: common.contentType.map((t) => t ?? undefined),
    }),
  );
});

const fileRoutes = [...FILE_ROUTES, ...REDIRECT_ROUTES].map((route) =>
  fc.record({
    kind: fc.constant('file' as const),
    template: fc.constant(route.path),
    method: fc.oneof({ weight: 5, arbitrary: fc.constant('GET') }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
    path: fillPath(route.path),
    params: paramsFor((route.operation.params.schema ?? {}) as Schema),
    ...common,
    contentType: common.contentType.map((t) => t ?? undefined),
  }),
);

/** A path naming a real file of the world (`«file:i»`, resolved by toRequest), sometimes mangled. */
const realFilePath = fc
  .tuple(fc.nat(20), fc.constantFrom('', '', '', '/medium', '%00', '/../x', 'x', '.png', '/'))
  .map(([i, suffix]) => `«file:${i}»${suffix}`);

const realFiles = fc.record({
  kind: fc.constant('file' as const),
  template: fc.constant('(a real file)'),
  method: fc.oneof({ weight: 5, arbitrary: fc.constant('GET') }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
  path: realFilePath,
  params: fc.array(fc.tuple(fc.constantFrom('s', 'api_key', 'client', 'x'), anyValue), { maxLength: 2 }),
  ...common,
  contentType: common.contentType.map((t) => t ?? undefined),
});

/** One request to any API route (each declared method of each route equally likely). */
export const apiRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(...apiRoutes);

/** One request to a file or redirect route outside /api/v1. */
export const fileRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(...fileRoutes, realFiles, realFiles);

/** The number of (route, method) pairs fuzzed, for the test's own sanity check. */
export const API_OPERATION_COUNT = apiRoutes.length;

/**
 * Builds the fetch Request of a generated case. GET and HEAD carry everything in the query.
 * `files` resolves `«file:i»` to the world's real file paths.
 */
export function toRequest(fuzz: FuzzRequest, authorization: string | undefined, files: readonly string[] = []): Request {
  const headers = new Headers();
  if (fuzz.host !== '') headers.set('host', fuzz.host);
  if (authorization !== undefined) headers.set('authorization', authorization);
  const placement = fuzz.method === 'GET' || fuzz.method === 'HEAD' ? 'query' : fuzz.placement;
  const middle = Math.ceil(fuzz.params.length / 2);
  const inQuery = placement === 'query' ? fuzz.params : placement === 'split' ? fuzz.params.slice(0, middle) : [];
  const inBody = placement === 'query' ? [] : placement === 'split' ? fuzz.params.slice(middle) : fuzz.params;
  const query = inQuery.length > 0 ? `?${new URLSearchParams(inQuery)}` : '';
  let body: BodyInit | undefined;
  if (placement === 'multipart') {
    const data = new FormData();
    for (const [name, value] of inBody) data.append(name, value);
    body = data;
  } else if (placement === 'json') {
    body = JSON.stringify(Object.fromEntries(inBody));
    headers.set('content-type', 'application/json');
  } else if (inBody.length > 0) {
    body = new URLSearchParams(inBody);
  }
  if (fuzz.contentType !== undefined && body !== undefined) headers.set('content-type', fuzz.contentType);
  const path = fuzz.path.replace(/«file:(\d+)»/, (_, i: string) => files[Number(i) % files.length] ?? '/');
  return new Request(`http://${HOST}${path}${query}`, { method: fuzz.method, headers, body });
}
