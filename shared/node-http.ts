/**
 * `node:http` as every bundle imports it (infra/bundling.ts LAMBDA_BUNDLE alias): the built-in module taken
 * with require(), not with an ES import. An ES import of node:http makes Node build the module's ES facade,
 * which reads every export, and three of them (WebSocket, CloseEvent, MessageEvent) are getters that load
 * Node's copy of undici: about 60 ms of CPU at every cold start, for nothing a function uses
 * (nodejs/node#57649, #59686). require() reads only what is asked for.
 *
 * What our bundles take from it: STATUS_CODES (@middy/util, for its HTTP errors) and, when the SDK calls a
 * plain-HTTP endpoint (DynamoDB Local; never in AWS, where every endpoint is HTTPS), Agent and request
 * through the default export. A bundle importing anything else fails to build, rather than load undefined.
 */
import type * as NodeHttp from 'node:http';
// Not named createRequire: the bundle's banner (infra/bundling.ts) declares that name, which esbuild does
// not see, and an unminified bundle would keep ours as it is and fail to load.
import { createRequire as requireFrom } from 'node:module';

const http = requireFrom(import.meta.url)('node:http') as typeof NodeHttp;

export default http;
export const { STATUS_CODES, Agent, request } = http;
