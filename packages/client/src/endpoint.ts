/**
 * The shape of one generated endpoint (generated/endpoints.ts): the runtime facts a request is
 * built from, and the input and result types a client method is typed by.
 */
import type { InputOf, ResultOf } from './core-types.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a request needs to know about an endpoint at run time. */
export interface EndpointSpec {
  readonly method: HttpMethod;
  /** Path template: under /api/v1 for `json` endpoints, from the server root for the others. */
  readonly path: string;
  readonly pathParams: readonly string[];
  /** Parameters sent as JSON text, as the server parses them; other strings go as they are. */
  readonly json: readonly string[];
  readonly auth: 'required' | 'optional' | 'none';
  /**
   * `json`: the API's envelope. `file`: bytes, answered as the Response. `redirect`: a 302 to
   * where the file is, answered as the unfollowed Response (its Location header; browsers give
   * an opaque one, where the endpoint's URL itself serves as an image source).
   */
  readonly response: 'json' | 'file' | 'redirect';
}

/** `T` with the keys `K` made optional: parameters the server defaults when absent. */
type WithOptional<T, K extends PropertyKey> = [K] extends [never]
  ? T
  : Omit<T, K & keyof T> & Partial<Pick<T, K & keyof T>>;

/** Path parameters take a number or text whatever the schema's type: they become path text anyway. */
type WithPathText<T, K extends PropertyKey> = [K] extends [never]
  ? T
  : Omit<T, K & keyof T> & { [P in K & keyof T]: T[P] | string | number };

/** The parameters a caller passes: the operation's input, defaulted ones optional, path ones as number or text. */
type CallerInput<Op, Defaulted extends string, Path extends string> = WithPathText<WithOptional<InputOf<Op>, Defaulted>, Path>;

/**
 * An API endpoint answering the JSON envelope. `Defaulted` names the parameters the server
 * fills in when absent; `Path` the ones that go in the path.
 */
export interface Endpoint<Op, Defaulted extends string, Path extends string> {
  input: CallerInput<Op, Defaulted, Path>;
  result: ResultOf<Op>;
}

/** A file or redirect endpoint: typed parameters, answered with the Response itself. */
export interface FileEndpoint<Op, Defaulted extends string, Path extends string> {
  input: CallerInput<Op, Defaulted, Path>;
  result: Response;
}

/** The fields every successful answer carries around the endpoint's own data. */
export interface SuccessEnvelope {
  result: 'success';
  msg: string;
  /** Parameters the server did not recognise (it ignores them). */
  ignored_parameters_unsupported?: string[];
}
