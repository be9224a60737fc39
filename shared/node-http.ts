/**
 * `node:http` as every bundle imports it (infra/bundling.ts LAMBDA_BUNDLE alias): the built-in module taken
 * with require(), not with an ES import. An ES import of node:http makes Node build the module's ES facade,
 * which reads every export, and three of them (WebSocket, CloseEvent, MessageEvent) are getters that load
 * Node's copy of undici: 20–30 ms of CPU at every cold start, for nothing a function uses
 * (nodejs/node#57649, #59686). require() reads only what is asked for.
 *
 * What our bundles take from it, all by the names below:
 * - STATUS_CODES: @middy/util, for its HTTP errors;
 * - request: shared/webhooks/sender.ts, for a receiver on plain HTTP (local ones);
 * - Agent and request through the default export, or request by destructuring: the SDK's HTTP handler for
 *   a plain-HTTP endpoint (DynamoDB Local; in AWS every endpoint is HTTPS) and its instance-metadata lookup.
 * A static import of a name not exported here fails the build; an `import * as`, an `import()` or a
 * `require()` of it would get undefined at run time, so a new importer's names belong here.
 */
import type * as NodeHttp from 'node:http';
// Not named createRequire: the bundle's banner (infra/bundling.ts) declares that name, which esbuild does
// not see, and an unminified bundle would keep ours as it is and fail to load. And not the banner's
// `require`: esbuild would send a require('node:http') written here through the alias, back to this file.
import { createRequire as requireFrom } from 'node:module';

const http = requireFrom(import.meta.url)('node:http') as typeof NodeHttp;

export default http;
export const { STATUS_CODES, Agent, request } = http;
