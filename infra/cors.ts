/**
 * CORS in API Gateway (the policy: shared/http/cors-policy.ts; docs/deploy.md "CORS"). Only with
 * `-c corsAllowOrigins=…`; without it the stack is as if CORS did not exist: OPTIONS answers 405 like any
 * method a path lacks, and no answer carries a CORS header.
 *
 * - The preflight is answered by the mock `ANY` method each path already has for the 405: its template
 *   turns an OPTIONS into 204. Not an OPTIONS method per path (CDK's `addCorsPreflight`): those 32 methods
 *   would take the prod stack past CloudFormation's 500 resources. (CDK's also answers the first listed
 *   origin to an Origin that is not listed, and lists every method instead of the path's.)
 * - That template compares the request's Origin with the list and names it only when it is listed, on the
 *   preflight and on the 405 alike.
 * - The gateway's own error answers (401 without a key, 404, 413, 429, 5xx) are gateway responses, whose
 *   templates are not VTL: they can only carry fixed headers (shared/http/gateway-responses.ts).
 */
import type { MethodResponse } from 'aws-cdk-lib/aws-apigateway';
import { answerCorsHeaders, preflightHeaders } from '../shared/http/cors-policy';
import { type GatewayAnswer, gatewayCorsHeaders } from '../shared/http/gateway-responses';

/** What the mock `ANY` method of a path answers: the 405, and with CORS the preflight too. */
export interface WrongMethodMock {
  /** Fixed headers: `method.response.header.<name>` → a quoted literal. */
  readonly responseParameters: Record<string, string>;
  /** The integration response's template: the 405 body, with CORS preceded by the per-Origin headers and the preflight. */
  readonly template: string;
  readonly methodResponses: MethodResponse[];
}

/** Headers as API Gateway response parameters: `method.response.header.<name>` → `'value'`. */
const quoted = (headers: Readonly<Record<string, string>>) =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [`method.response.header.${name}`, `'${value}'`]));

const declared = (names: readonly string[]) => Object.fromEntries(names.map((name) => [`method.response.header.${name}`, true]));

/** VTL: the `#set`s of the headers an override adds (an override may be set only once: the fixed headers are left out). */
const overrides = (headers: Record<string, string>, fixed: Record<string, string>) =>
  Object.entries(headers)
    .filter(([name]) => !(name in fixed))
    .map(([name, value]) => `#set($context.responseOverride.header.${name} = "${value}")`);

/**
 * `answer` is the 405 (its body names `$context.httpMethod`); `methods` those of the path. With origins, an
 * OPTIONS gets 204 with, for a listed Origin, the preflight's headers; another method the 405 with, for a
 * listed Origin, the headers of an answer. The Origin header as sent: HTTP/2 clients send it lower-case.
 */
export function wrongMethodMock(answer: GatewayAnswer, methods: readonly string[], origins: readonly string[]): WrongMethodMock {
  const statusCode = String(answer.statusCode);
  const body = JSON.stringify(answer.body);
  if (origins.length === 0) {
    const fixed = { ...answer.headers };
    return { responseParameters: quoted(fixed), template: body, methodResponses: [{ statusCode, responseParameters: declared(Object.keys(fixed)) }] };
  }
  const fixed = { ...answer.headers, Vary: 'Origin' };
  const preflight = preflightHeaders('$origin', methods);
  const corsAnswer = answerCorsHeaders('$origin');
  const listed = `#if(${origins.map((origin) => `$origin == "${origin}"`).join(' || ')})`;
  const template = [
    '#set($origin = $input.params().header.get("Origin"))',
    '#if("$!origin" == "")#set($origin = $input.params().header.get("origin"))#end',
    '#if($context.httpMethod == "OPTIONS")',
    '#set($context.responseOverride.status = 204)',
    listed,
    ...overrides(preflight, fixed),
    '#end',
    '#else',
    listed,
    ...overrides(corsAnswer, fixed),
    '#end',
    body,
    '#end',
  ].join('\n');
  return {
    responseParameters: quoted(fixed),
    template,
    methodResponses: [
      { statusCode, responseParameters: declared(Object.keys({ ...fixed, ...corsAnswer })) },
      { statusCode: '204', responseParameters: declared(Object.keys({ ...fixed, ...preflight })) },
    ],
  };
}

/** Headers as a gateway response's `responseHeaders`: each value a quoted literal. */
export const gatewayResponseHeaders = (headers: Readonly<Record<string, string>>) =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, `'${value}'`]));

/** The fixed CORS headers of every gateway response, as its `responseHeaders` (quoted literals). */
export const gatewayResponseCors = (origins: readonly string[]) => gatewayResponseHeaders(gatewayCorsHeaders(origins));
