/**
 * A lab's interface engine for the tests: @medplum/hl7's Hl7Server (an MLLP implementation independent of
 * ours, shared/hl7/mllp.ts) on a loopback port, answering each message as the test says and keeping what it
 * received. Its messages are @medplum/hl7's own Hl7Message (it pins its own @medplum/core).
 */
import type { AddressInfo } from 'node:net';
import { type Hl7Connection, type Hl7MessageEvent, Hl7Server } from '@medplum/hl7';

export type LabMessage = Hl7MessageEvent['message'];
export type LabAnswer = (message: LabMessage, connection: Hl7Connection) => void;

export interface TestLab {
  port: number;
  received: LabMessage[];
  /** The control ids (MSH-10) of what it received, in order. */
  controlIds(): string[];
  stop(): Promise<void>;
}

/** The ACK a lab sends: `code` for the message, with `text` in MSA-3 when given. */
export function ack(message: LabMessage, code: 'AA' | 'AE' | 'AR', text?: string): LabMessage {
  const answer = message.buildAck({ ackCode: code });
  if (text !== undefined) answer.getSegment('MSA')!.setField(3, text);
  return answer;
}

export const acceptAll: LabAnswer = (message, connection) => connection.send(ack(message, 'AA'));

/** Starts a lab on `port` (0: a free one). */
export async function startTestLab(answer: LabAnswer = acceptAll, port = 0): Promise<TestLab> {
  const received: LabMessage[] = [];
  const server = new Hl7Server((connection) => {
    connection.addEventListener('message', ({ message }: Hl7MessageEvent) => {
      received.push(message);
      answer(message, connection);
    });
  });
  await server.start(port);
  return {
    port: (server.server!.address() as AddressInfo).port,
    received,
    controlIds: () => received.map((message) => message.getSegment('MSH')!.getField(10).toString()),
    stop: () => server.stop({ forceDrainTimeoutMs: 0 }),
  };
}
