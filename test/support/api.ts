/**
 * The HTTP surface under test: the local server (the same one `npm start` runs) on a free port,
 * called with fetch. Each integration file starts one in beforeAll and closes it in afterAll.
 */
import { afterAll, beforeAll } from 'vitest';
import { type LocalApi, startLocalApi } from '../../infra/local/server';
import { assertDocumented, recordContractChecks } from './contract';

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back
}

export interface RequestOptions {
  key?: string;
  body?: unknown;
  /** Sent as is, instead of JSON.stringify(body): text, or bytes that need not be UTF-8. */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
}

export interface TestApi {
  /** Base URL of the running server, for requests that need the raw response (binary bodies, redirects). */
  url(): string;
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  get(path: string, key?: string): Promise<ApiResponse>;
  post(path: string, body: unknown, key?: string): Promise<ApiResponse>;
  patch(path: string, body: unknown, key?: string): Promise<ApiResponse>;
}

/**
 * Registers beforeAll/afterAll hooks and returns the client to call the server with. Every response is
 * checked against docs/openapi.json (test/support/contract.ts).
 */
export function useApi(): TestApi {
  let server: LocalApi | undefined;
  recordContractChecks('integration');
  beforeAll(async () => {
    server = await startLocalApi(0);
  });
  afterAll(async () => {
    await server?.close();
  });

  async function request(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    if (!server) throw new Error('the API server is not running');
    const headers: Record<string, string> = { ...options.headers };
    if (options.key !== undefined) headers['x-api-key'] = options.key;
    let body: string | Uint8Array | undefined = options.rawBody;
    if (body === undefined && options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(`${server.url}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    if (response.headers.get('content-type')?.includes('application/json') && text) parsed = JSON.parse(text);
    const received = { status: response.status, headers: response.headers, body: parsed };
    assertDocumented(method, path, received);
    return received;
  }

  return {
    url: () => {
      if (!server) throw new Error('the API server is not running');
      return server.url;
    },
    request,
    get: (path, key) => request('GET', path, { key }),
    post: (path, body, key) => request('POST', path, { body, key }),
    patch: (path, body, key) => request('PATCH', path, { body, key }),
  };
}
