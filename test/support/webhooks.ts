/**
 * Webhook tests' real parts: an HTTP receiver on loopback (as a client's endpoint), and the one AWS hop
 * that cannot run here, EventBridge → SQS, rebuilt with the exact message shape AWS sends: an SQS record
 * whose body is the EventBridge event of each PutEvents entry the service put.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { handler as dispatch } from '../../functions/events/webhook-dispatch';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** What the receiver does with the n-th request (0-based): answer a status, or never answer ('hang'). */
export type Behaviour = (n: number) => number | 'hang';

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
      res.writeHead(answer).end();
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

/** The EventBridge event AWS builds from a PutEvents entry, as the rule's SQS target receives it. */
export function eventBridgeEvent(entry: PutEventsRequestEntry): Record<string, unknown> {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': entry.DetailType,
    source: entry.Source,
    account: '123456789012',
    time: (entry.Time ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region: 'eu-central-1',
    resources: [],
    detail: JSON.parse(entry.Detail as string),
  };
}

export function sqsEvent(bodies: string[]): SQSEvent {
  const Records = bodies.map(
    (body): SQSRecord => ({
      messageId: randomUUID(),
      receiptHandle: 'receipt',
      body,
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: String(Date.now()),
        SenderId: 'events.amazonaws.com',
        ApproximateFirstReceiveTimestamp: String(Date.now()),
      },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:eu-central-1:123456789012:webhooks',
      awsRegion: 'eu-central-1',
    }),
  );
  return { Records };
}

/** Runs the dispatcher Lambda on these entries, ten per SQS batch as the event source mapping sends them. */
export async function dispatchEntries(entries: PutEventsRequestEntry[]): Promise<string[]> {
  const failures: string[] = [];
  for (let i = 0; i < entries.length; i += 10) {
    const batch = entries.slice(i, i + 10).map((entry) => JSON.stringify(eventBridgeEvent(entry)));
    const result = await dispatch(sqsEvent(batch));
    failures.push(...result.batchItemFailures.map((f) => f.itemIdentifier));
  }
  return failures;
}
