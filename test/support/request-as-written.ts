/**
 * One HTTP request with its path exactly as written: node:http with the path as an option. A URL string
 * (fetch, or node:http given one) has its dot segments resolved first, `%2e%2e` included, so
 * `/appointments/%2e%2e/panels` would be sent as `/panels`. The bytes of the body as given, with their length.
 */
import { request as httpRequest } from 'node:http';

export function requestAsWritten(
  baseUrl: string,
  path: string,
  method: string,
  headers: Headers,
  body?: string | Uint8Array,
): Promise<{ status: number; headers: Headers; text: string }> {
  const { hostname, port } = new URL(baseUrl);
  const outgoing: Record<string, string> = Object.fromEntries(headers);
  if (body !== undefined) outgoing['content-length'] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, method, headers: outgoing }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const answered = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) answered.set(name, Array.isArray(value) ? value.join(', ') : value);
        resolve({ status: res.statusCode ?? 0, headers: answered, text: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
