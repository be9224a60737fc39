/** What a row of the routes table (shared/routes.ts) says of an endpoint. */
import type { Scope } from '../domain/scopes';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface Route {
  /** Its name in the table: the key of `routes`, the operation id of the OpenAPI document. */
  readonly name: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly handler: string;
  readonly scopes: readonly Scope[];
  /** Every scope of `scopes` is needed, not one of them. */
  readonly allScopes?: true;
  /**
   * The path carries a credential (an unsubscribe token): every log names the request by `path`, the
   * template, never the path it was called with (the local server's request line; the functions and API
   * Gateway's access log never log a path).
   */
  readonly secretPath?: true;
}
