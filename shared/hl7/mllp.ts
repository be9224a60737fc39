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
 * id before the deadline (a refused connection, a dropped one, silence, an ACK of another message, more than
 * 64 KiB without the frame's end) is no answer (MllpNoAnswer), and the caller tries again later with the same control id.
 */
import { isIP, connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { decodeText } from './text';

const START = 0x0b;
const END = Buffer.from([0x1c, 0x0d]);

export interface MllpTarget {
  host: string;
  port: number;
  /**
   * TLS, else plain TCP. The lab's certificate is always checked, and against the host name: against Node's
   * bundled Mozilla CA list, or, when `ca` is given, against that CA instead (a lab's private CA).
   */
  tls: boolean;
  /** The CA (PEM) the lab's certificate must chain to, when it is no public one; TLS only. */
  ca?: string;
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

/** The longest reason we keep from the lab, in characters: an ERR segment can carry a stack trace. */
const MAX_TEXT = 500;

/** The most of an answer we buffer: an ACK is a few hundred bytes, and a lab that sends more is no answer. */
export const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Sends `message` (segments separated by CR, as shared/hl7/oml-o21.ts writes it) as UTF-8 and waits at most
 * `timeoutMs` in all (connecting included) for its ACK. Resolves with the lab's answer; rejects with
 * MllpNoAnswer when there is none.
 */
export function sendMllp(target: MllpTarget, message: string, controlId: string, timeoutMs: number): Promise<MllpAnswer> {
  return new Promise((resolve, reject) => {
    const answer = new FrameReader();
    let settled = false;
    const socket: Socket = target.tls
      ? tlsConnect({
          host: target.host,
          port: target.port,
          // SNI names a host, never an address (RFC 6066); the certificate is checked against `host` either way.
          ...(isIP(target.host) === 0 && { servername: target.host }),
          ...(target.ca !== undefined && { ca: target.ca }),
        })
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
      const frame = answer.add(chunk);
      if (frame === 'too long') return noAnswer(`the lab's answer exceeded ${MAX_ANSWER_BYTES / 1024} KiB`);
      if (frame === undefined) return;
      const ack = readAck(frame.toString('utf8'));
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

/**
 * The bytes of one answer as they arrive, in a buffer of MAX_ANSWER_BYTES: each chunk is copied once and
 * searched from where the last search stopped, for the frame's start (0x0B) and then its end (0x1C 0x0D).
 * Bytes after the end are never read.
 */
class FrameReader {
  private readonly bytes = Buffer.alloc(MAX_ANSWER_BYTES);
  private length = 0;
  /** Where the frame's content begins (after 0x0B); -1 until its start arrives. */
  private start = -1;
  /** Every byte before this was searched. */
  private searched = 0;

  /** The frame's content once its end arrived; 'too long' once more than MAX_ANSWER_BYTES came without it. */
  add(chunk: Buffer): Buffer | 'too long' | undefined {
    const taken = chunk.copy(this.bytes, this.length);
    this.length += taken;
    const view = this.bytes.subarray(0, this.length);
    if (this.start === -1) {
      const at = view.indexOf(START, this.searched);
      this.searched = this.length;
      if (at !== -1) this.start = this.searched = at + 1;
    }
    if (this.start !== -1) {
      // From one byte back: the end's 0x1C may have been the last byte of the previous chunk.
      const end = view.indexOf(END, Math.max(this.start, this.searched - 1));
      if (end !== -1) return view.subarray(this.start, end);
      this.searched = this.length;
    }
    return taken < chunk.length ? 'too long' : undefined;
  }
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
export function readAck(framed: string): Ack | undefined {
  // Some engines put a line break between 0x0B and MSH.
  const text = framed.replace(/^\s+/, '');
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
  const reason = candidates.map((raw) => oneLine(readable(raw))).find((value) => value !== '') ?? '';
  return { code, controlId: first(msa[2]).split(delimiters.component)[0]!.trim(), text: reason };
}

/**
 * The lab's words as we store them: one line (every run of control characters and line or paragraph
 * separators one space), trimmed, and at most MAX_TEXT characters, never half of a surrogate pair.
 */
function oneLine(text: string): string {
  const flat = text.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').trim();
  return Array.from(flat).slice(0, MAX_TEXT).join('').trimEnd();
}
