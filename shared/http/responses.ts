/**
 * Successful responses. Every JSON body is marked no-store: nothing a patient's data passes through may be
 * cached.
 *
 * A `Reply<Status, Body>` is an API Gateway result that remembers, in its type only, which status and body
 * it carries. shared/http/handler.ts requires each handler to return one of the success replies its
 * operation documents (shared/contract/operations.ts): another status or body type does not compile. (A
 * body with extra fields still does; the tests' contract check refuses those.)
 */
import type { APIGatewayProxyResult } from 'aws-lambda';

declare const BODY: unique symbol;

export interface Reply<S extends number, B> extends APIGatewayProxyResult {
  statusCode: S;
  /** Type only: never set at run time. */
  readonly [BODY]?: B;
}

/** The body type of a reply that is not JSON (a document's bytes). */
export interface BinaryBody {
  readonly binary: true;
}

export const baseHeaders = {
  'Content-Type': 'application/json',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
} as const;

export function json<S extends number, B>(statusCode: S, body: B, headers: Record<string, string> = {}): Reply<S, B> {
  return { statusCode, headers: { ...baseHeaders, ...headers }, body: JSON.stringify(body) };
}

/** Set to `true` on a create's answer replayed for a retried Idempotency-Key (shared/http/idempotency.ts). */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

export const ok = <B>(body: B) => json(200, body);
export const created = <B>(body: B) => json(201, body);

/**
 * A page of a list: the body stays the JSON array the spec shows; the cursor of the next page, when
 * there is one, travels in the X-Next-Cursor header.
 */
export function okPage<B>(page: { items: B[]; next?: string }): Reply<200, B[]> {
  return json(200, page.items, page.next ? { 'X-Next-Cursor': page.next } : {});
}

/** 303 See Other: the body repeats the Location so that a client that does not follow redirects can. */
export const seeOther = (url: string) => json(303, { url }, { Location: url });

/** Bytes answered as they are (API Gateway decodes the base64), with their own content type. */
export function binary(bytes: Buffer, headers: Record<string, string>): Reply<200, BinaryBody> {
  return {
    statusCode: 200,
    headers: { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', ...headers },
    body: bytes.toString('base64'),
    isBase64Encoded: true,
  };
}

/** A text body of another content type than application/json (a FHIR Bundle as application/fhir+json). */
export function textOf(contentType: string, body: string): Reply<200, BinaryBody> {
  return { statusCode: 200, headers: { ...baseHeaders, 'Content-Type': contentType }, body };
}
