/**
 * One HL7 v2 message sent over MLLP (HL7's Minimal Lower Layer Protocol: TCP, each message framed as
 * 0x0B message 0x1C 0x0D), optionally over TLS, and the lab engine's acknowledgement read back.
 *
 * Our own few lines over node:net and node:tls rather than @medplum/hl7's Hl7Client: that client pulls
 * @medplum/core (the reason shared/hl7/message.ts replaced it, 66 KB) and iconv-lite into the sender's
 * bundle for what is framing and one MSA segment. @medplum/hl7's Hl7Server is the judge in the tests.
 *
 * One connection per message, closed after the ACK: a sender runs once per order, so a kept-open
 * connection would only be one more thing to find dead. Whatever is not a readable ACK naming our control
 * id before the deadline (a refused connection, a dropped one, silence, an ACK of another message) is no
 * answer (MllpNoAnswer), and the caller tries again later with the same control id.
 */
import { connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { decodeText } from './text';

const START = 0x0b;
const END = Buffer.from([0x1c, 0x0d]);

export interface MllpTarget {
  host: string;
  port: number;
  /** TLS (certificate checked against the system's CAs and the host name), else plain TCP. */
  tls: boolean;
}

/** MSA-1: AA/CA the message was taken; AE/AR/CE/CR it was not (error or reject, application or commit level). */
export type AckCode = 'AA' | 'AE' | 'AR' | 'CA' | 'CE' | 'CR';
const ACCEPTING: readonly string[] = ['AA', 'CA'];
const REFUSING: readonly string[] = ['AE', 'AR', 'CE', 'CR'];

export type MllpAnswer = { accepted: true; code: AckCode } | { accepted: false; code: AckCode; text: string };

/** Why an attempt got no answer; the caller retries. The message never holds the lab's words or ours. */
export class MllpNoAnswer extends Error {
  override name = 'MllpNoAnswer';
}

/** The longest reason we keep from the lab: an ERR segment can carry a stack trace. */
const MAX_TEXT = 500;

/**
 * Sends `message` (segments separated by CR, as shared/hl7/oml-o21.ts writes it) as UTF-8 and waits at most
 * `timeoutMs` in all (connecting included) for its ACK. Resolves with the lab's answer; rejects with
 * MllpNoAnswer when there is none.
 */
export function sendMllp(target: MllpTarget, message: string, controlId: string, timeoutMs: number): Promise<MllpAnswer> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    let settled = false;
    const socket: Socket = target.tls
      ? tlsConnect({ host: target.host, port: target.port, servername: target.host })
      : tcpConnect({ host: target.host, port: target.port });
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      outcome();
    };
    const noAnswer = (reason: string) => finish(() => reject(new MllpNoAnswer(reason)));
    const timer = setTimeout(() => noAnswer(`no acknowledgement within ${timeoutMs} ms`), timeoutMs);

    socket.once(target.tls ? 'secureConnect' : 'connect', () => {
      socket.write(Buffer.concat([Buffer.from([START]), Buffer.from(message, 'utf8'), END]));
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const start = received.indexOf(START);
      const end = start === -1 ? -1 : received.indexOf(END, start + 1);
      if (end === -1) return;
      const ack = readAck(received.subarray(start + 1, end).toString('utf8'));
      if (!ack) return noAnswer('the answer is no HL7 acknowledgement (no MSH and MSA with a known code)');
      // An ACK of another message (a stale one, or the engine's mistake) says nothing of ours.
      if (ack.controlId !== controlId) return noAnswer('the acknowledgement names another message control id');
      const code = ack.code as AckCode;
      finish(() => resolve(ACCEPTING.includes(code) ? { accepted: true, code } : { accepted: false, code, text: ack.text || REFUSAL_NAMES[code] }));
    });
    socket.on('error', (error: NodeJS.ErrnoException) => noAnswer(`connection failed (${error.code ?? error.name})`));
    socket.on('close', () => noAnswer('the lab closed the connection before acknowledging'));
  });
}

const REFUSAL_NAMES: Readonly<Record<AckCode, string>> = {
  AA: 'Application Accept',
  CA: 'Commit Accept',
  AE: 'Application Error',
  AR: 'Application Reject',
  CE: 'Commit Error',
  CR: 'Commit Reject',
};

interface Ack {
  code: string;
  controlId: string;
  /** The lab's reason, decoded: MSA-3, else ERR-8 (user message), else ERR-3's text; '' when none. */
  text: string;
}

/** An ACK's MSA (and ERR), in the delimiters its MSH declares; undefined when it is none. */
export function readAck(text: string): Ack | undefined {
  if (!text.startsWith('MSH') || text.length < 8) return undefined;
  const delimiters = { field: text[3]!, component: text[4]!, repetition: text[5]!, escape: text[6]!, subcomponent: text[7]! };
  const segments = text.split(/[\r\n]+/).map((line) => line.split(delimiters.field));
  const msa = segments.find((fields) => fields[0] === 'MSA');
  const code = msa?.[1]?.trim().toUpperCase() ?? '';
  if (!msa || ![...ACCEPTING, ...REFUSING].includes(code)) return undefined;
  const err = segments.find((fields) => fields[0] === 'ERR');
  const first = (value: string | undefined) => (value ?? '').split(delimiters.repetition)[0]!;
  const readable = (raw: string) => {
    try {
      return decodeText(raw, delimiters, 'utf-8');
    } catch {
      return raw; // an escape we cannot read: the lab's words as written beat none
    }
  };
  const candidates = [first(msa[3]), first(err?.[8]), first(err?.[3]).split(delimiters.component)[1] ?? ''];
  const reason = candidates.map((raw) => readable(raw).trim()).find((value) => value !== '') ?? '';
  return { code, controlId: first(msa[2]).split(delimiters.component)[0]!.trim(), text: reason.slice(0, MAX_TEXT) };
}
