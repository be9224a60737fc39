/**
 * A client's webhook endpoint for tests: a real HTTP server on loopback that records what it receives
 * and answers as told. It imports nothing of the service, so the e2e suite can use it too.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** What the receiver does with the n-th request (0-based): answer a status (after a delay), or never answer ('hang'). */
export type Behaviour = (n: number) => number | 'hang' | { status: number; afterMs: number };

export interface Receiver {
  url: string;
  received: Received[];
  /** The webhook-ids received, in order. */
  ids(): string[];
  behave(behaviour: Behaviour): void;
  close(): Promise<void>;
}

export async function startReceiver(behaviour: Behaviour = () => 204): Promise<Receiver> {
  const received: Received[] = [];
  let behave = behaviour;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const n = received.length;
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const answer = behave(n);
      if (answer === 'hang') return; // the sender's timeout ends it
      if (typeof answer === 'number') res.writeHead(answer).end();
      else setTimeout(() => res.writeHead(answer.status).end(), answer.afterMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    ids: () => received.map((r) => r.headers['webhook-id'] as string),
    behave: (next) => (behave = next),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
