/**
 * The local HTTP server: turns each request into the API Gateway REST proxy event, invokes the same
 * handler module the Lambda runs (from shared/routes.ts), and writes its response back — binary
 * (base64) bodies included. What API Gateway answers by itself, before any Lambda runs, this server answers
 * before any handler, from the same shared/http/gateway-responses.ts the stack is configured with: an
 * unknown path (404), a known path with another method (405 with Allow), a keyed route without an
 * x-api-key header (401), and with `keyLimits` (npm start) a bad key (401) or a key over its request limits
 * (429: ./key-limits.ts). With CORS_ALLOW_ORIGINS it also answers the CORS preflight (`OPTIONS`) of every
 * path and puts CORS headers on those answers, as the stack configures API Gateway (infra/cors.ts).
 *
 * The handler modules read shared/config.ts when first imported, so set the environment first.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import * as v from 'valibot';
import { allowedOrigin, AllowedOrigins, answerCorsHeaders, preflightHeaders } from '../../shared/http/cors-policy';
import { API_KEY_HEADER, type GatewayAnswer, gatewayCorsHeaders, missingKey, unknownPath, wrongMethod } from '../../shared/http/gateway-responses';
import { type Route, routeEntries } from '../../shared/routes';
import type { KeyLimits } from '../../shared/domain/rate-limits';
import { LocalKeyLimits } from './key-limits';

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const MAX_BODY_BYTES = 10 * 1024 * 1024; // API Gateway's payload limit

type LambdaHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

interface CompiledRoute {
  /** A name of the routes table, or of a route the caller added (the bench's floor). */
  name: string;
  route: Route;
  pattern: RegExp;
  paramNames: string[];
}

function compile(name: string, route: Route): CompiledRoute {
  const paramNames: string[] = [];
  const source = route.path.replace(/\{(\w+)\}/g, (_, param: string) => {
    paramNames.push(param);
    return '([^/]+)';
  });
  return { name, route, pattern: new RegExp(`^${source}$`), paramNames };
}

const compiledRoutes = routeEntries.map(([name, route]) => compile(name, route));
const handlers = new Map<string, Promise<LambdaHandler>>();

function loadHandler(route: Route): Promise<LambdaHandler> {
  let loaded = handlers.get(route.handler);
  if (!loaded) {
    const url = pathToFileURL(resolve(repositoryRoot, route.handler)).href;
    loaded = import(url).then((module: { handler: LambdaHandler }) => module.handler);
    handlers.set(route.handler, loaded);
  }
  return loaded;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

function answer(res: ServerResponse, gatewayAnswer: GatewayAnswer, corsHeaders: Readonly<Record<string, string>>): void {
  send(res, gatewayAnswer.statusCode, gatewayAnswer.body, { ...gatewayAnswer.headers, ...corsHeaders });
}

/** CORS as the stack configures API Gateway (infra/cors.ts): the allowed origins, and its answers' fixed headers. */
interface GatewayCors {
  origins: readonly string[];
  /** Of the gateway responses (401, 404, 413, 5xx): fixed values, API Gateway cannot compare Origins there. */
  fixed: Readonly<Record<string, string>>;
}

/** The mock integrations (405, preflight) compare the request's Origin with the list. */
function mockCorsHeaders(req: IncomingMessage, cors: GatewayCors, perOrigin: (origin: string) => Record<string, string>): Record<string, string> {
  if (cors.origins.length === 0) return {};
  const origin = allowedOrigin(req.headers, cors.origins);
  return origin === undefined ? { Vary: 'Origin' } : perOrigin(origin);
}

/** As API Gateway's mock ANY method, whose fixed Allow header the preflight carries too. */
function preflight(res: ServerResponse, req: IncomingMessage, cors: GatewayCors, methods: readonly string[]): void {
  res.writeHead(204, { Allow: methods.join(', '), ...mockCorsHeaders(req, cors, (origin) => preflightHeaders(origin, methods)) });
  res.end();
}

async function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return 'too-large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function toEvent(
  req: IncomingMessage,
  url: { pathname: string; searchParams: URLSearchParams },
  match: CompiledRoute,
  params: string[],
  body: Buffer,
): APIGatewayProxyEvent {
  // Maps without a prototype: a parameter or header named `constructor`, `toString` or `__proto__` must be a
  // key like any other (as in the JSON event API Gateway sends), not reach Object.prototype (a 500 before).
  const headers: Record<string, string> = Object.create(null);
  const multiValueHeaders: Record<string, string[]> = Object.create(null);
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    headers[name] = values.join(',');
    multiValueHeaders[name] = values;
  }
  const query: Record<string, string> = Object.create(null);
  const multiQuery: Record<string, string[]> = Object.create(null);
  for (const [name, value] of url.searchParams) {
    query[name] = value;
    (multiQuery[name] ??= []).push(value);
  }
  const pathParameters = Object.fromEntries(match.paramNames.map((name, i) => [name, params[i] ?? '']));
  const requestId = randomUUID();
  return {
    resource: match.route.path,
    path: url.pathname,
    httpMethod: match.route.method,
    headers,
    multiValueHeaders,
    queryStringParameters: url.searchParams.size > 0 ? query : null,
    multiValueQueryStringParameters: url.searchParams.size > 0 ? multiQuery : null,
    pathParameters: match.paramNames.length > 0 ? pathParameters : null,
    stageVariables: null,
    // As API Gateway with binaryMediaTypes */*: the bytes as sent, base64, for the handler to check they are UTF-8.
    body: body.length > 0 ? body.toString('base64') : null,
    isBase64Encoded: body.length > 0,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      authorizer: undefined,
      protocol: `HTTP/${req.httpVersion}`,
      httpMethod: match.route.method,
      identity: { sourceIp: req.socket.remoteAddress ?? '127.0.0.1' } as APIGatewayProxyEvent['requestContext']['identity'],
      path: url.pathname,
      stage: 'local',
      requestId,
      requestTimeEpoch: Date.now(),
      resourceId: match.name,
      resourcePath: match.route.path,
    },
  };
}

function toContext(name: string): Context {
  const awsRequestId = randomUUID();
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: `lab-api-local-${name}`,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:lab-api-local-${name}`,
    memoryLimitInMB: '256',
    awsRequestId,
    logGroupName: `/aws/lambda/lab-api-local-${name}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => 30_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

function writeResult(res: ServerResponse, result: APIGatewayProxyResult): void {
  const headers: Record<string, string | string[]> = { ...(result.headers as Record<string, string>) };
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) headers[name] = values.map(String);
  res.writeHead(result.statusCode, headers);
  res.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
}

/**
 * The request's URL with its path exactly as sent. WHATWG's URL parser resolves dot segments, `%2e%2e`
 * included, so `/api/v1/appointments/%2e%2e/panels` would become `/api/v1/panels`; API Gateway matches
 * the path as sent (there `..` is the `{id}` of a route), and so must we.
 */
function requestUrl(req: IncomingMessage): { pathname: string; searchParams: URLSearchParams } {
  const target = req.url ?? '/';
  if (!target.startsWith('/')) return new URL(target, 'http://localhost');
  const [pathname = '/', query = ''] = target.split(/[?#]/, 2);
  return { pathname, searchParams: new URL(`http://localhost/?${query}`).searchParams };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  cors: GatewayCors,
  limits: LocalKeyLimits | undefined,
  served: readonly CompiledRoute[],
): Promise<void> {
  const url = requestUrl(req);
  const matching = served.map((compiled) => ({ compiled, params: compiled.pattern.exec(url.pathname) })).filter((c) => c.params !== null);
  if (matching.length === 0) return answer(res, unknownPath, cors.fixed);
  // As API Gateway: a literal segment wins over a {param} (POST /appointments/pickup is not /appointments/{id}).
  const fewestParams = Math.min(...matching.map((c) => c.compiled.paramNames.length));
  const candidates = matching.filter((c) => c.compiled.paramNames.length === fewestParams);
  const chosen = candidates.find((c) => c.compiled.route.method === req.method);
  const methods = candidates.map((c) => c.compiled.route.method);
  if (!chosen && req.method === 'OPTIONS' && cors.origins.length > 0) return preflight(res, req, cors, methods);
  if (!chosen) return answer(res, wrongMethod(req.method ?? '', methods), mockCorsHeaders(req, cors, answerCorsHeaders));
  // API Gateway's request validator requires the header, present and not blank, on every keyed route.
  const key = req.headers[API_KEY_HEADER];
  if (chosen.compiled.route.scopes.length > 0 && !key) return answer(res, missingKey, cors.fixed);
  if (limits && chosen.compiled.route.scopes.length > 0 && typeof key === 'string') {
    const admission = await limits.admit(key);
    if (!admission.admitted) return send(res, admission.status, { error: admission.message }, { ...admission.headers, ...cors.fixed });
  }
  let params: string[];
  try {
    params = (chosen.params ?? []).slice(1).map((param) => decodeURIComponent(param));
  } catch {
    return send(res, 400, { error: 'The path is not correctly percent-encoded' }, cors.fixed);
  }
  const body = await readBody(req);
  if (body === 'too-large') return send(res, 413, { error: 'Request body exceeds 10 MB' }, cors.fixed);
  const handler = await loadHandler(chosen.compiled.route);
  const event = toEvent(req, url, chosen.compiled, params, body);
  const context = toContext(chosen.compiled.name);
  writeResult(res, await handler(event, context));
}

/** The path a request line shows: as called, or the template of a route with `secretPath` (shared/routes/route.ts). */
function loggedPath(req: IncomingMessage, served: readonly CompiledRoute[]): string {
  const { pathname } = requestUrl(req);
  const secret = served.find((compiled) => compiled.route.secretPath && compiled.pattern.test(pathname));
  if (secret) return secret.route.path;
  // A path under a secret route's prefix that matches none of them (/u/<token>/, /u/<token>/x) still carries a token.
  const prefix = served
    .map(({ route }) => (route.secretPath ? route.path.slice(0, route.path.indexOf('{')) : ''))
    .find((p) => p !== '' && pathname.startsWith(p));
  return prefix ? `${prefix}{redacted}` : pathname;
}

export interface LocalApi {
  url: string;
  close(): Promise<void>;
}

/**
 * `corsAllowOrigins`: the list the handlers read too (CORS_ALLOW_ORIGINS, docs/deploy.md "CORS"), so the gateway's
 * answers and the functions' agree.
 */
export interface LocalApiOptions {
  host?: string;
  /** Default: CORS_ALLOW_ORIGINS. */
  corsAllowOrigins?: string;
  /**
   * Per-key limits at the gateway, `stageDefault` for keys without their own (null: those are not limited).
   * Unset: none, and no key lookup before the handler's — the test harness and the bench, whose DynamoDB
   * faults and call counts are the handlers' own.
   */
  keyLimits?: { stageDefault: KeyLimits | null };
  /** One short line per answered request (`npm start` without --verbose), e.g. `200 GET /api/v1/locations 12 ms`. */
  requestLine?: (line: string) => void;
  /**
   * Routes served beside the table's, the same way (event, invocation context, answer): the bench's floor
   * handler (infra/bench/floor-handlers.ts), so that it crosses the same local hop as the route it is the floor of.
   */
  extraRoutes?: readonly { name: string; route: Route }[];
}

/** How long an idle keep-alive connection stays open: longer than any client keeps one it means to reuse. */
export const KEEP_ALIVE_MS = 65_000;

export async function startLocalApi(port: number, options: LocalApiOptions = {}): Promise<LocalApi> {
  const { host = '127.0.0.1', corsAllowOrigins = process.env.CORS_ALLOW_ORIGINS, keyLimits, requestLine, extraRoutes = [] } = options;
  const parsed = v.safeParse(AllowedOrigins, corsAllowOrigins ?? '');
  if (!parsed.success) throw new Error(`CORS_ALLOW_ORIGINS: ${parsed.issues[0].message}`);
  const cors: GatewayCors = { origins: parsed.output, fixed: gatewayCorsHeaders(parsed.output) };
  const limits = keyLimits && new LocalKeyLimits(keyLimits.stageDefault);
  const served = [...compiledRoutes, ...extraRoutes.map(({ name, route }) => compile(name, route))];
  const server = createServer((req, res) => {
    if (requestLine) {
      const started = performance.now();
      // The path without its query (a cursor is long, and a query can carry a search term); a route whose path
      // carries a credential (an unsubscribe token) by its template.
      res.once('finish', () => requestLine(`${res.statusCode} ${req.method} ${loggedPath(req, served)} ${Math.round(performance.now() - started)} ms`));
    }
    handle(req, res, cors, limits, served).catch(() => {
      // The handlers shape their own errors; reaching this means the server itself failed.
      if (!res.headersSent) send(res, 500, { error: 'Internal server error' }, cors.fixed);
      else res.end();
    });
  });
  // A client's pooled connection must never be closed under it: Node's default 5 s idle timeout is shorter
  // than a pause between two calls of a partner's test suite (or `npm run lab`), and undici's fetch then
  // sends on a socket the server is closing (UND_ERR_SOCKET other side closed). The server outlasts its
  // clients: undici keeps a socket for the `Keep-Alive: timeout` this sends minus a margin, curl and most
  // pools far less; headers are timed out only after it, as Node asks.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 5_000;
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolveListen());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}
