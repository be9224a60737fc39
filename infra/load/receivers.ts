/**
 * The partners' webhook endpoints of a load run: an HTTP server per partner on loopback that records each
 * delivery's `webhook-id` with the status it answered, and answers 204 — or 503 while the run's fault says so
 * (the receivers' outage). What each received is compared with what it should have (./invariants.ts).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoadReceiver {
  url: string;
  /** Every request: its webhook-id and the status answered. */
  received: { id: string; status: number; at: number }[];
  /** While true, every delivery is answered 503. */
  down: boolean;
  close(): Promise<void>;
}

export async function startLoadReceiver(): Promise<LoadReceiver> {
  const receiver: LoadReceiver = {
    url: '',
    received: [],
    down: false,
    close: async () => undefined,
  };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const status = receiver.down ? 503 : 204;
      receiver.received.push({ id: String(req.headers['webhook-id'] ?? ''), status, at: Date.now() });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
