/** Successful responses. Every body is JSON; nothing a patient's data passes through may be cached. */
import type { APIGatewayProxyResult } from 'aws-lambda';

export const baseHeaders = {
  'Content-Type': 'application/json',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
} as const;

export function json(statusCode: number, body: unknown): APIGatewayProxyResult {
  return { statusCode, headers: { ...baseHeaders }, body: JSON.stringify(body) };
}

export const ok = (body: unknown) => json(200, body);
export const created = (body: unknown) => json(201, body);

/**
 * A page of a list: the body stays the JSON array the spec shows; the cursor of the next page, when
 * there is one, travels in the X-Next-Cursor header.
 */
export function okPage(page: { items: unknown[]; next?: string }): APIGatewayProxyResult {
  const response = ok(page.items);
  if (page.next) response.headers = { ...response.headers, 'X-Next-Cursor': page.next };
  return response;
}
