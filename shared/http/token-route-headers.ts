/**
 * What every answer of a route whose path carries a token (secretPath: the unsubscribe link, the patient's
 * link) says to the browser, errors included: never framed, no Referer (the token is in the address), never
 * cached, never indexed, no type sniffing. Each adds its own Content-Security-Policy.
 */
export const TOKEN_ROUTE_HEADERS = {
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'X-Robots-Tag': 'noindex',
  'X-Content-Type-Options': 'nosniff',
} as const;
