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
