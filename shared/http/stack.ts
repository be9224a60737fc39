/**
 * shared/http owns the HTTP edge of every Lambda: the one Middy stack, errors, responses, validation.
 * It may import auth/ and store/ (the key stage: handler.ts, api-key.ts, audit.ts) but never a handler.
 *
 * `composeHttpHandler` builds that stack once for a row of the routes table; shared/http/handler.ts
 * (`httpHandler`, routes with scopes) gives it the key stage, `publicHttpHandler` (routes without) none.
 * This module imports no key lookup, no access log and so no DynamoDB client: a public function
 * (GET /health, the docs) bundles none. Order, outermost first:
 *   (the invocation's log context, shared/logger.ts, and the access log: plugin hooks, around it all) CORS headers (when configured) → the route's own answer headers (when it has any) → error stage (@middy/http-error-handler, then our mapping) → header names in lower case → [key stage: API key (401) → scopes (403)
 *   → read audit (its `after` records the reads of a succeeded request, shared/http/audit.ts)]
 *   → [JSON body: content type (415), size (413), UTF-8 and JSON (400)] → valibot input (400) → handler.
 * The key and scope come before the body, so an unauthenticated caller learns nothing about the input
 * rules (the spec's order of checks: 401, 403, then 400).
 * Middy runs `onError` in reverse, so the error stage sees every failure, including the parser's.
 */
import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { GenericSchema, InferOutput } from 'valibot';
import type { AccessContext } from '../auth/access';
import { now as clock } from '../config';
import type { Operations } from '../contract/operations';
import { inInvocation } from '../logger';
import type { Route, RouteName, routes } from '../routes';
import { corsHeaders, corsOnEarlyAnswer } from './cors';
import type { JsonBody } from './json-body';
import { accessLog, errorStage, type LabContext, lowerCaseHeaderNames, validateInput } from './middlewares';
import type { BinaryBody, Reply } from './responses';
import { requestBaseUrl } from './static-responses';

type Parsed<S> = S extends GenericSchema ? InferOutput<S> : undefined;
type ParsedBody<B> = B extends JsonBody<infer S> ? InferOutput<S> : undefined;

export interface HandlerInput<P, Q, B> {
  params: Parsed<P>;
  query: Parsed<Q>;
  body: ParsedBody<B>;
  access: AccessContext;
  now: Date;
  /** The API's address as this request reached it (scheme, host, stage): for links in an answer. */
  baseUrl: string;
  /** API Gateway's request id: what an access-log entry a public route writes names (the patient's page, which records no address). */
  request: { id: string };
}

type Documented<D> = D extends { schema: infer S extends GenericSchema } ? InferOutput<S> : BinaryBody;

/** The replies a route's operation documents (shared/contract/operations.ts): one per status. */
export type ReplyOf<R extends RouteName> = {
  [S in keyof Operations[R]['responses'] & number]: Reply<S, Documented<Operations[R]['responses'][S]>>;
}[keyof Operations[R]['responses'] & number];

export interface HttpHandlerDefinition<R extends RouteName, P, Q, B> {
  /** Its row of the routes table, imported from shared/routes/ (never the whole table: shared/routes.ts). */
  route: Route & { readonly name: R };
  /** The Idempotency-Key middleware of a create (shared/http/idempotency.ts), run just before the handler. */
  idempotency?: MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, LabContext>;
  params?: P;
  query?: Q;
  /** A JSON body: `jsonBody(Schema)` (shared/http/json-body.ts); a form: `formBody(Schema)` (form-body.ts). */
  body?: B;
  /** Headers of every answer, errors included (the unsubscribe pages' security headers). */
  headers?: Readonly<Record<string, string>>;
  /**
   * A page a browser shows, by status, instead of an error's `{"error": …}` (the patient's page: its 429, 500 and
   * 503): its body and headers replace the JSON's; the status and `Retry-After` stay. Undefined: the JSON.
   */
  errorPage?: (statusCode: number) => { html: string; headers: Readonly<Record<string, string>> } | undefined;
  run(input: HandlerInput<P, Q, B>): Promise<ReplyOf<R>>;
}

/** What a handler accepts, for the OpenAPI generator (infra/contract/openapi.ts). */
export interface HandlerContract {
  route: RouteName;
  params?: GenericSchema;
  query?: GenericSchema;
  body?: GenericSchema;
  /** The body's media types when it is not JSON (a form). */
  bodyMediaTypes?: readonly string[];
  /** The body may be left out. */
  bodyOptional?: true;
  idempotent: boolean;
}

/** The access context of a route that needs no key (GET /health): it can see nothing. */
const NO_ACCESS: AccessContext = {
  keyId: 'anonymous',
  scopes: new Set(),
  profileGroups: new Set(),
  locationGroups: new Set(),
};

type LabMiddleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, LabContext>;

/** Routes that need no key (no scopes): GET /health, the OpenAPI document, the docs page and its files. */
export type PublicRouteName = { [N in RouteName]: (typeof routes)[N]['scopes'] extends readonly [] ? N : never }[RouteName];

/**
 * The stack of a route, with its key stage: the key check, the scope check and the read audit of a route
 * with scopes (shared/http/handler.ts), nothing for a public one. Either way round is refused at load, so a
 * route can neither skip its key nor make a public function bundle the key lookup.
 */
export function composeHttpHandler<
  R extends RouteName,
  P extends GenericSchema | undefined = undefined,
  Q extends GenericSchema | undefined = undefined,
  B extends JsonBody | undefined = undefined,
>(definition: HttpHandlerDefinition<R, P, Q, B>, keyStage: readonly LabMiddleware[]) {
  const { name } = definition.route;
  const isPublic = definition.route.scopes.length === 0;
  if (isPublic !== (keyStage.length === 0)) {
    throw new Error(`Route ${name} ${isPublic ? 'needs no key: use publicHttpHandler' : 'needs a key: use httpHandler'}`);
  }

  const stack = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, LabContext>(accessLog(name))
    .use(corsHeaders())
    .use(definition.headers ? [answerHeaders(definition.headers)] : [])
    .use(definition.errorPage ? [errorPageStage(definition.errorPage)] : [])
    .use(errorStage())
    .use(lowerCaseHeaderNames());
  for (const middleware of keyStage) stack.use(middleware);
  if (definition.body) stack.use(definition.body.read);
  stack.use(validateInput({ params: definition.params, query: definition.query, body: definition.body?.schema }));
  if (definition.idempotency) stack.use(corsOnEarlyAnswer(definition.idempotency));

  const handler = stack.handler(async (event, context): Promise<APIGatewayProxyResult> =>
    definition.run({
      params: context.input?.params as Parsed<P>,
      query: context.input?.query as Parsed<Q>,
      body: context.input?.body as ParsedBody<B>,
      access: context.access ?? NO_ACCESS,
      now: clock(),
      // Read when a handler builds a link (two do), not for every request.
      get baseUrl() {
        return requestBaseUrl(event);
      },
      get request() {
        return { id: event.requestContext?.requestId ?? context.awsRequestId };
      },
    }),
  );
  const contract: HandlerContract = {
    route: name,
    params: definition.params,
    query: definition.query,
    body: definition.body?.schema,
    ...(definition.body?.mediaTypes ? { bodyMediaTypes: definition.body.mediaTypes } : {}),
    ...(definition.body?.optional ? { bodyOptional: true as const } : {}),
    idempotent: definition.idempotency !== undefined,
  };
  // Every line the request writes names its function and request id (shared/logger.ts), the stack's own included.
  return Object.assign(inInvocation(handler), handler, { contract });
}

/** `headers` on every answer: registered before the error stage, so its `onError` sees the error's answer too. */
function answerHeaders(headers: Readonly<Record<string, string>>): LabMiddleware {
  const write = (request: { response?: APIGatewayProxyResult | null }) => {
    if (request.response) request.response = { ...request.response, headers: { ...request.response.headers, ...headers } };
  };
  return { after: write, onError: write };
}

/**
 * `errorPage`: registered before the error stage, so its `onError` runs after the error stage wrote the JSON
 * answer (Middy runs `onError` in reverse), and before `headers` adds the route's own.
 */
function errorPageStage(render: NonNullable<HttpHandlerDefinition<RouteName, unknown, unknown, unknown>['errorPage']>): LabMiddleware {
  return {
    onError: (request) => {
      const response = request.response;
      const page = response ? render(response.statusCode) : undefined;
      if (!response || !page) return;
      const retryAfter = response.headers?.['Retry-After'];
      request.response = {
        statusCode: response.statusCode,
        headers: { ...page.headers, ...(retryAfter === undefined ? {} : { 'Retry-After': retryAfter }) },
        body: page.html,
      };
    },
  };
}

/** The handler of a route that needs no key. */
export function publicHttpHandler<
  R extends PublicRouteName,
  P extends GenericSchema | undefined = undefined,
  Q extends GenericSchema | undefined = undefined,
  B extends JsonBody | undefined = undefined,
>(definition: HttpHandlerDefinition<R, P, Q, B>) {
  return composeHttpHandler(definition, []);
}
