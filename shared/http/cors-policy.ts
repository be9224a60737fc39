/**
 * CORS for browser clients (docs/deploy.md "CORS"), the policy only: which origins may call, what a preflight
 * answers, which response headers a browser may read. Off unless origins are configured. Three sides apply
 * it and must agree: the functions (shared/http/cors.ts), API Gateway (infra/cors.ts) and the local server.
 *
 * Origins are exact: scheme, host and port as a browser sends them in `Origin`. No `*` and no pattern: the
 * API serves health data, so the web pages allowed to read its answers are named one by one and reviewed
 * like any deploy, never "any page on the internet". CORS does not replace the API keys: it only decides
 * which pages a browser lets read the answers.
 *
 * Pure (valibot only): shared/config.ts and the CDK settings (infra/settings.ts) validate with it.
 */
import * as v from 'valibot';

/** The request headers a browser client sends beyond the CORS-safelisted ones. */
export const CORS_ALLOW_HEADERS = ['content-type', 'x-api-key', 'idempotency-key'] as const;

/**
 * The response headers our answers carry that a browser client needs to read (Content-Type and
 * Cache-Control are readable anyway): the next page's cursor, whether a create was replayed, the 303 target of a large document, the file
 * name of a download, the methods a 405 names, when to retry a 429 or 503 and which limits a 429 hit.
 */
export const CORS_EXPOSE_HEADERS = [
  'X-Next-Cursor',
  'Idempotent-Replayed',
  'Location',
  'Content-Disposition',
  'Allow',
  'Retry-After',
  'RateLimit-Policy',
  'RateLimit',
] as const;

/**
 * How long a browser may reuse a preflight: two hours, Chromium's ceiling. Only the methods and headers are
 * cached; every actual answer still names the origin, so removing an origin takes effect at once.
 */
export const CORS_MAX_AGE_SECONDS = 7200;

const ORIGIN_SHAPE = /^https?:\/\/[^/?#@*\s]+$/i;
/** What an origin is once canonical: letters, digits, dots and hyphens (IDNs in punycode), or an IPv6 literal. */
const CANONICAL_ORIGIN = /^https?:\/\/([a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d+)?$/;

/**
 * One origin of the list, in the form browsers send (lower-case host, punycode, no default port), or
 * undefined when it is not an http(s) origin of its own: a path, a query, user info, a wildcard, a character
 * no host has. (The result is safe to write into API Gateway's templates and quoted header values.)
 */
function canonicalOrigin(text: string): string | undefined {
  if (!ORIGIN_SHAPE.test(text) || !URL.canParse(text)) return undefined;
  const origin = new URL(text).origin;
  return CANONICAL_ORIGIN.test(origin) ? origin : undefined;
}

/**
 * CORS_ALLOW_ORIGINS (and the CDK context `corsAllowOrigins`): a comma-separated list of exact origins,
 * e.g. `https://app.example,https://admin.example`. Empty: CORS off.
 */
export const AllowedOrigins = v.pipe(
  v.string(),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const entries = dataset.value
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
    const origins: string[] = [];
    for (const entry of entries) {
      const origin = canonicalOrigin(entry);
      if (origin === undefined) {
        addIssue({
          message: `${JSON.stringify(entry)} is not an origin: give scheme, host and optional port (https://app.example), no path and no *`,
        });
        return NEVER;
      }
      if (!origins.includes(origin)) origins.push(origin);
    }
    return origins as readonly string[];
  }),
);

/** The value of a request's `Origin` header when it is one of `allowed`, else undefined. */
export function allowedOrigin(
  headers: Readonly<Record<string, string | string[] | undefined>> | null | undefined,
  allowed: readonly string[],
): string | undefined {
  if (!headers || allowed.length === 0) return undefined;
  const name = Object.keys(headers).find((header) => header.toLowerCase() === 'origin');
  const origin = name === undefined ? undefined : headers[name];
  return typeof origin === 'string' && allowed.includes(origin) ? origin : undefined;
}

/** The CORS headers of a preflight (`OPTIONS`, answered 204) from an allowed origin: what it may send to the path. */
export function preflightHeaders(origin: string, methods: readonly string[]): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Methods': methods.join(', '),
    'Access-Control-Allow-Headers': CORS_ALLOW_HEADERS.join(', '),
    'Access-Control-Max-Age': String(CORS_MAX_AGE_SECONDS),
    Vary: 'Origin',
  };
}

/** The CORS headers of an actual answer to an allowed origin. */
export function answerCorsHeaders(origin: string): Record<string, string> {
  return { 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': CORS_EXPOSE_HEADERS.join(', '), Vary: 'Origin' };
}
