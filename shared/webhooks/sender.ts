/**
 * One webhook request: POST the body with its signed headers, wait at most ATTEMPT_TIMEOUT_MS for the
 * status line, and tell what happened — the status code, or why there was none. Nothing of the
 * receiver's answer is kept but its status: a body could hold anything.
 *
 * The connection's address is checked by the URL policy at connect time (a custom `lookup`), so the
 * address that passed the check is the one connected to. Redirects are not followed (a 3xx is a failure,
 * as Standard Webhooks says).
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import type { LookupFunction } from 'node:net';
import { ATTEMPT_TIMEOUT_MS } from '../domain/webhook';
import { InvalidInput } from '../errors';
import type { SignedHeaders } from './signing';
import { checkWebhookUrl, isAllowedAddress, type Resolver, resolveAll, type UrlPolicy } from './url-policy';

export interface SendResult {
  status_code: number | null;
  /** Why there is no 2xx, in words a client can act on; null when the receiver accepted. */
  error: string | null;
}

const USER_AGENT = 'lab-api-webhooks/1';

/** Resolves like the system does, then refuses a forbidden address before any connection is made. */
function guardedLookup(policy: UrlPolicy, resolve: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const refused = addresses.find((address) => !isAllowedAddress(address, policy));
        if (addresses.length === 0 || refused !== undefined) {
          const error = Object.assign(new Error(refused ? 'forbidden address' : 'no address'), { code: refused ? 'EFORBIDDEN' : 'ENOTFOUND' });
          callback(error, '', 4);
          return;
        }
        const entries = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
        if (options.all) callback(null, entries);
        else callback(null, entries[0]?.address ?? '', entries[0]?.family ?? 4);
      },
      (error: NodeJS.ErrnoException) => callback(Object.assign(error, { code: error.code ?? 'ENOTFOUND' }), '', 4),
    );
  };
}

function describe(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'EFORBIDDEN':
      return 'the host resolves to a private, loopback, link-local or reserved address';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name does not resolve';
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ETIMEDOUT':
    case 'ABORT_ERR':
      return `no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s`;
    default:
      return error.code?.startsWith('ERR_TLS') || error.code?.includes('CERT') ? 'TLS handshake failed' : 'connection failed';
  }
}

/** `resolve` is the system resolver; tests give another to play DNS. */
export async function sendWebhook(url: string, headers: SignedHeaders, body: string, policy: UrlPolicy, resolve: Resolver = resolveAll): Promise<SendResult> {
  let target: URL;
  try {
    target = checkWebhookUrl(url, policy);
  } catch (error) {
    if (error instanceof InvalidInput) return { status_code: null, error: error.message };
    throw error;
  }
  const options: RequestOptions = {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT, 'content-length': Buffer.byteLength(body), ...headers },
    lookup: guardedLookup(policy, resolve),
    signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    agent: false,
  };
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<SendResult>((resolve) => {
    const req = send(target, options, (res) => {
      const status = res.statusCode ?? 0;
      // The answer's body is not needed: drop it and free the socket.
      res.resume();
      res.on('error', () => undefined);
      resolve({ status_code: status, error: status >= 200 && status < 300 ? null : `the receiver answered ${status}` });
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ status_code: null, error: describe(error) }));
    req.end(body);
  });
}
