/**
 * Our MLLP client (shared/hl7/mllp.ts) against @medplum/hl7's Hl7Server, an independent implementation
 * of the protocol, on loopback: its answers, its silence, a dropped connection, and the bytes of a message
 * with names outside ASCII as the server reads them. Where a lab must misbehave on purpose (split writes,
 * trickled or endless bytes, hand-made acknowledgements), a raw server of node:net writes the bytes; the TLS
 * tests use node:tls with certificates the openssl binary makes for the run.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { Hl7Message } from '@medplum/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { omlO21, type OrderMessageInput } from '../../shared/hl7/oml-o21';
import { MAX_ANSWER_BYTES, MllpNoAnswer, sendMllp } from '../../shared/hl7/mllp';
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

const FRAME_END = Buffer.from([0x1c, 0x0d]);
const framed = (text: string) => Buffer.concat([Buffer.from([0x0b]), Buffer.from(text, 'utf8'), FRAME_END]);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An acknowledgement as a lab's engine writes it, by hand: MSA-1 `code` for our message, MSA-3 `text`, then `more` segments. */
function ackText(code: string, text = '', ...more: string[]): string {
  const msh = 'MSH|^~\\&|LIS|Central Lab|LABAPI|Demo Clinic|20261128101531||ACK^O21^ACK|ACK-1|P|2.5.1';
  return [msh, `MSA|${code}|${order.controlId}|${text}`, ...more].join('\r');
}

/** A raw server that calls `answer` once our whole message (up to 0x1C 0x0D) arrived. */
async function rawLab(answer: (socket: Socket) => unknown): Promise<number> {
  return rawServer((socket) => {
    let received = Buffer.alloc(0);
    let answered = false;
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (answered || received.indexOf(FRAME_END) === -1) return;
      answered = true;
      void answer(socket);
    });
  });
}

describe('sendMllp reading what a lab writes', () => {
  it('reads an acknowledgement that arrives split across several TCP writes', async () => {
    const bytes = framed(ackText('AA'));
    // Three pieces, the last cut between 0x1C and 0x0D.
    const pieces = [bytes.subarray(0, 5), bytes.subarray(5, bytes.length - 1), bytes.subarray(bytes.length - 1)];
    const port = await rawLab(async (socket) => {
      socket.setNoDelay(true);
      for (const piece of pieces) {
        socket.write(piece);
        await pause(30);
      }
    });
    await expect(sendMllp(target(port), message, order.controlId, 5000)).resolves.toEqual({ accepted: true, code: 'AA' });
  });

  it('ignores the bytes after the end of the frame', async () => {
    const port = await rawLab((socket) =>
      socket.write(Buffer.concat([framed(ackText('AA')), Buffer.from('trailing bytes'), framed(ackText('AR', 'too late'))])),
    );
    await expect(sendMllp(target(port), message, order.controlId, 5000)).resolves.toEqual({ accepted: true, code: 'AA' });
  });

  it('gives no answer, at once rather than at the deadline, when the lab sends more than 64 KiB without ending the frame', async () => {
    const port = await rawLab((socket) => socket.write(Buffer.concat([Buffer.from([0x0b]), Buffer.alloc(MAX_ANSWER_BYTES + 1024, 'A')])));
    const started = Date.now();
    await expect(sendMllp(target(port), message, order.controlId, 20_000)).rejects.toThrow(new MllpNoAnswer("the lab's answer exceeded 64 KiB"));
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('gives no answer at the deadline when the lab trickles bytes that never end the frame', async () => {
    const port = await rawLab((socket) => {
      socket.write(Buffer.from([0x0b]));
      const trickle = setInterval(() => socket.write('MSH|'), 50);
      socket.on('close', () => clearInterval(trickle));
    });
    const started = Date.now();
    await expect(sendMllp(target(port), message, order.controlId, 400)).rejects.toThrow(new MllpNoAnswer('no acknowledgement within 400 ms'));
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('reads an acknowledgement with a line break between the start of the frame and MSH', async () => {
    const port = await rawLab((socket) => socket.write(framed(`\r\n${ackText('AA')}`)));
    await expect(sendMllp(target(port), message, order.controlId, 5000)).resolves.toEqual({ accepted: true, code: 'AA' });
  });

  it('stores a refusal text of 600 characters with control characters on one line, cut at 500 characters and never inside one', async () => {
    // A tab, a bell, an escaped line break and an escaped LF; then 400 x and 200 emoji (each two UTF-16 units).
    const raw = `Rejected:\t\u0007line one\\.br\\line\\X0A\\two ${'x'.repeat(400)}${'😀'.repeat(200)}`;
    const port = await rawLab((socket) => socket.write(framed(ackText('AR', raw))));
    const answer = await sendMllp(target(port), message, order.controlId, 5000);
    const expected = `Rejected: line one line two ${'x'.repeat(400)}${'😀'.repeat(72)}`;
    expect(Array.from(expected)).toHaveLength(500);
    expect(answer).toEqual({ accepted: false, code: 'AR', text: expected });
  });

  it.each([
    ['CE', 'Commit Error'],
    ['CR', 'Commit Reject'],
  ])('takes %s as a refusal, named %j when the lab gives no text', async (code, name) => {
    const port = await rawLab((socket) => socket.write(framed(ackText(code))));
    await expect(sendMllp(target(port), message, order.controlId, 5000)).resolves.toEqual({ accepted: false, code, text: name });
  });

  it("uses ERR-8, the lab's message to the user, when MSA-3 is empty", async () => {
    const err = 'ERR|||207^Application internal error^HL70357|E||||Specimen volume too low';
    const port = await rawLab((socket) => socket.write(framed(ackText('AE', '', err))));
    await expect(sendMllp(target(port), message, order.controlId, 5000)).resolves.toEqual({ accepted: false, code: 'AE', text: 'Specimen volume too low' });
  });

  it("uses the text of ERR-3's error code when MSA-3 and ERR-8 are empty", async () => {
    const err = 'ERR|||207^Application internal error^HL70357|E';
    const port = await rawLab((socket) => socket.write(framed(ackText('AE', '', err))));
    await expect(sendMllp(target(port), message, order.controlId, 5000)).resolves.toEqual({ accepted: false, code: 'AE', text: 'Application internal error' });
  });
});

describe('sendMllp over TLS', () => {
  let dir: string;
  /** Self-signed certificates made for this run: one for 127.0.0.1 and localhost, one for another host. */
  let lab: { key: string; cert: string };
  let elsewhere: { key: string; cert: string };

  function selfSigned(name: string, altNames: string): { key: string; cert: string } {
    const key = join(dir, `${name}.key`);
    const cert = join(dir, `${name}.crt`);
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:P-256',
          '-nodes',
          '-days',
          '1',
          '-subj',
          `/CN=${name}`,
          '-addext',
          `subjectAltName=${altNames}`,
          '-keyout',
          key,
          '-out',
          cert,
        ],
        { stdio: 'pipe' },
      );
    } catch (error) {
      throw new Error(`The TLS tests make their certificates with the openssl binary, which failed or is missing: ${String(error)}`);
    }
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  }

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mllp-tls-'));
    lab = selfSigned('test-lab', 'IP:127.0.0.1,DNS:localhost');
    elsewhere = selfSigned('elsewhere', 'DNS:lab.invalid');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A lab's engine over TLS with `identity`, answering AA once our message arrived. */
  async function tlsLab(identity: { key: string; cert: string }, host = '127.0.0.1'): Promise<number> {
    const server = createTlsServer(identity, (socket) => {
      let received = Buffer.alloc(0);
      socket.on('error', () => undefined);
      socket.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        if (received.indexOf(FRAME_END) !== -1) socket.write(framed(ackText('AA')));
      });
    });
    server.on('tlsClientError', () => undefined);
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    stops.push(() => new Promise((resolve) => server.close(() => resolve())));
    return (server.address() as AddressInfo).port;
  }

  it('refuses a lab whose certificate is self-signed when no CA is given', async () => {
    const port = await tlsLab(lab);
    await expect(sendMllp({ host: '127.0.0.1', port, tls: true }, message, order.controlId, 5000)).rejects.toThrow(
      new MllpNoAnswer('connection failed (DEPTH_ZERO_SELF_SIGNED_CERT)'),
    );
  });

  it('accepts that lab at its IP address when its certificate is the CA given', async () => {
    const port = await tlsLab(lab);
    await expect(sendMllp({ host: '127.0.0.1', port, tls: true, ca: lab.cert }, message, order.controlId, 5000)).resolves.toEqual({
      accepted: true,
      code: 'AA',
    });
  });

  it('accepts that lab by its host name when its certificate is the CA given', async () => {
    const port = await tlsLab(lab, 'localhost');
    await expect(sendMllp({ host: 'localhost', port, tls: true, ca: lab.cert }, message, order.controlId, 5000)).resolves.toEqual({
      accepted: true,
      code: 'AA',
    });
  });

  it('refuses a certificate of the CA given that names another host', async () => {
    const port = await tlsLab(elsewhere);
    await expect(sendMllp({ host: '127.0.0.1', port, tls: true, ca: elsewhere.cert }, message, order.controlId, 5000)).rejects.toThrow(
      new MllpNoAnswer('connection failed (ERR_TLS_CERT_ALTNAME_INVALID)'),
    );
  });
});
