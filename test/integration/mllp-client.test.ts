/**
 * Our MLLP client (shared/hl7/mllp.ts) against @medplum/hl7's Hl7Server, an independent implementation
 * of the protocol, on loopback: its answers, its silence, a dropped connection, and the bytes of a message
 * with names outside ASCII as the server reads them.
 */
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Hl7Message } from '@medplum/core';
import { afterEach, describe, expect, it } from 'vitest';
import { omlO21, type OrderMessageInput } from '../../shared/hl7/oml-o21';
import { MllpNoAnswer, sendMllp } from '../../shared/hl7/mllp';
import { ack, acceptAll, type LabAnswer, startTestLab, type TestLab } from '../support/hl7-lab';

const order: OrderMessageInput = {
  controlId: 'RQ7K3M9XQ2HT4W',
  sentAt: new Date('2026-11-28T10:15:30Z'),
  parties: { sendingFacility: 'Demo Clinic', receivingApplication: 'LIS', receivingFacility: 'Central Lab' },
  patient: { id: '2c59b543-54a0-47b9-891a-61ed02fc2ea7', familyName: 'Müller-Łukasiewicz', givenName: 'Zoë', birthDate: '1984-08-12', sex: 2 },
  barcode: 'LAB-0001-ABC',
  requisitionNumber: 'RQ-7K3M-9XQ2-HT4W',
  orderedAt: '2026-11-28T10:15:00Z',
  collectedAt: '2026-11-28T10:14:00Z',
  tests: [{ biomarker_id: 2, loinc: '718-7', name: 'Haemoglobin', specimen: { type: 'whole_blood', container: 'EDTA (lavender)', min_volume_ml: 1 } }],
};
const message = omlO21(order);

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (stops.length > 0) await stops.pop()!();
});

/** A lab on a free loopback port, stopped after the test. */
async function lab(answer: LabAnswer): Promise<TestLab> {
  const started = await startTestLab(answer);
  stops.push(started.stop);
  return started;
}

/** A raw TCP server for what no HL7 server does on purpose: close on the sender. */
async function rawServer(onConnection: Parameters<typeof createServer>[1]): Promise<number> {
  const server: Server = createServer(onConnection!);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stops.push(() => new Promise((resolve) => server.close(() => resolve())));
  return (server.address() as AddressInfo).port;
}

const target = (port: number) => ({ host: '127.0.0.1', port, tls: false });

describe('sendMllp', () => {
  it('resolves accepted when the lab answers AA for our control id', async () => {
    const { port, received } = await lab(acceptAll);
    await expect(sendMllp(target(port), message, order.controlId, 5000)).resolves.toEqual({ accepted: true, code: 'AA' });
    expect(received.map((m) => m.getSegment('MSH')!.getField(10).toString())).toEqual(['RQ7K3M9XQ2HT4W']);
  });

  it("resolves refused with the lab's own text when it answers AR", async () => {
    const { port } = await lab((incoming, connection) => connection.send(ack(incoming, 'AR', 'Unknown test code 718-7 \\T\\ specimen')));
    await expect(sendMllp(target(port), message, order.controlId, 5000)).resolves.toEqual({
      accepted: false,
      code: 'AR',
      text: 'Unknown test code 718-7 & specimen',
    });
  });

  it('rejects with no answer when the lab says nothing within the timeout', async () => {
    const { port, received } = await lab(() => undefined);
    const started = Date.now();
    await expect(sendMllp(target(port), message, order.controlId, 300)).rejects.toThrow(new MllpNoAnswer('no acknowledgement within 300 ms'));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(received).toHaveLength(1);
  });

  it('rejects with no answer when the lab drops the connection before acknowledging', async () => {
    const port = await rawServer((socket) => socket.once('data', () => socket.destroy()));
    await expect(sendMllp(target(port), message, order.controlId, 5000)).rejects.toThrow(
      new MllpNoAnswer('the lab closed the connection before acknowledging'),
    );
  });

  it('rejects with no answer when nothing listens on the port', async () => {
    const port = await rawServer(() => undefined);
    await stops.pop()!(); // closed again: the port refuses connections now
    await expect(sendMllp(target(port), message, order.controlId, 5000)).rejects.toThrow(new MllpNoAnswer('connection failed (ECONNREFUSED)'));
  });

  it('treats an acknowledgement of another control id as no answer', async () => {
    const { port } = await lab((incoming, connection) => {
      const answer = ack(incoming, 'AA');
      answer.getSegment('MSA')!.setField(2, 'SOMETHINGELSE');
      connection.send(answer);
    });
    await expect(sendMllp(target(port), message, order.controlId, 5000)).rejects.toThrow(
      new MllpNoAnswer('the acknowledgement names another message control id'),
    );
  });

  it('frames a message with names outside ASCII so that the lab reads them as sent, in UTF-8', async () => {
    const { port, received } = await lab(acceptAll);
    await sendMllp(target(port), message, order.controlId, 5000);
    expect(received[0]!.getSegment('PID')!.getField(5).toString()).toBe('Müller-Łukasiewicz^Zoë');
    expect(received[0]!.toString()).toBe(Hl7Message.parse(message).toString());
  });
});
