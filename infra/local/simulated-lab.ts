/**
 * The lab on the laptop (issue #51): `npm start` runs an interface engine that listens for HL7 v2 over MLLP
 * on LAB_MLLP_PORT (default 2575), answers each message AA, and keeps what it received in the data folder,
 * one JSON line each: `<LAB_DATA_DIR>/lab-orders.ndjson` `{received_at, control_id, message}` (the raw
 * message, segments separated by CR). `npm run lab -- refuse-next [--text "…"]` writes a control file here
 * that makes it answer the next message AR with that text (MSA-3), once.
 *
 * @medplum/hl7's Hl7Server is its engine: the same independent implementation the tests judge our MLLP
 * client by (shared/hl7/mllp.ts), so a message the local stack sends is read by something other than us.
 * Like a real engine it records every message it receives, a repeated control id included.
 */
import { appendFileSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Hl7MessageEvent, Hl7Server } from '@medplum/hl7';
import { encodeText } from '../../shared/hl7/text';

export const labOrdersFile = (dataDir: string) => join(dataDir, 'lab-orders.ndjson');
export const refuseNextFile = (dataDir: string) => join(dataDir, 'lab-refuse-next.json');

/** What `refuse-next` answers when it is given no text. */
export const DEFAULT_REFUSAL = 'Refused by the simulated lab (npm run lab -- refuse-next)';

export interface ReceivedOrder {
  received_at: string;
  control_id: string;
  message: string;
}

/** Every message the simulated lab received, newest first. */
export function receivedOrders(dataDir: string): ReceivedOrder[] {
  let text: string;
  try {
    text = readFileSync(labOrdersFile(dataDir), 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as ReceivedOrder)
    .reverse();
}

/** Makes the next message answered AR with `text` (replacing a refusal not yet used). */
export function refuseNext(dataDir: string, text: string): void {
  const file = refuseNextFile(dataDir);
  writeFileSync(`${file}.${process.pid}.tmp`, `${JSON.stringify({ text })}\n`);
  renameSync(`${file}.${process.pid}.tmp`, file);
}

/** The refusal waiting for the next message, taken (so it applies once); undefined when none. */
function takeRefusal(dataDir: string): string | undefined {
  const file = refuseNextFile(dataDir);
  const taken = `${file}.taken`;
  try {
    // A rename is atomic: of two messages arriving at once, one takes it.
    renameSync(file, taken);
  } catch {
    return undefined;
  }
  try {
    return (JSON.parse(readFileSync(taken, 'utf8')) as { text?: string }).text || DEFAULT_REFUSAL;
  } finally {
    rmSync(taken, { force: true });
  }
}

export async function startSimulatedLab(port: number, dataDir: string): Promise<{ port: number; stop(): Promise<void> }> {
  const server = new Hl7Server((connection) => {
    connection.addEventListener('message', ({ message }: Hl7MessageEvent) => {
      const controlId = message.getSegment('MSH')?.getField(10)?.toString() ?? '';
      const received: ReceivedOrder = { received_at: new Date().toISOString(), control_id: controlId, message: message.toString() };
      appendFileSync(labOrdersFile(dataDir), `${JSON.stringify(received)}\n`);
      const refusal = takeRefusal(dataDir);
      const ack = message.buildAck({ ackCode: refusal === undefined ? 'AA' : 'AR' });
      if (refusal !== undefined) ack.getSegment('MSA')?.setField(3, encodeText(refusal));
      connection.send(ack);
    });
  });
  await server.start(port);
  const address = server.server?.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    stop: () => server.stop({ forceDrainTimeoutMs: 0 }),
  };
}
