/**
 * The SES side of the tests (issue #52): aws-ses-v2-local, the SES emulator `npm start` runs, behind a small
 * proxy on loopback that can answer as SES does when it throttles — the network edge where a test injects a
 * fault, the service's code untouched. Imported FIRST by a test file (before anything of shared/), since it
 * points SES_ENDPOINT and the sender settings at them before shared/config.ts reads the environment.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import startSesEmulator from 'aws-ses-v2-local';
import { simpleParser } from 'mailparser';

const listen = (server: Server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

const emulator = await startSesEmulator({ host: '127.0.0.1', port: 0 });
const emulatorPort = (emulator.address() as AddressInfo).port;

let failures: { status: number; type: string; message: string }[] = [];
const proxy = createServer((req, res) => {
  const failure = req.url?.startsWith('/v2/email/outbound-emails') ? failures.shift() : undefined;
  if (failure) {
    req.resume();
    res.writeHead(failure.status, { 'content-type': 'application/json', 'x-amzn-errortype': failure.type });
    return void res.end(JSON.stringify({ message: failure.message }));
  }
  const upstream = request({ host: '127.0.0.1', port: emulatorPort, path: req.url, method: req.method, headers: req.headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  req.pipe(upstream);
});
const proxyPort = await listen(proxy);

export const sesEmulator = `http://127.0.0.1:${emulatorPort}`;
Object.assign(process.env, {
  SES_ENDPOINT: `http://127.0.0.1:${proxyPort}`,
  EMAIL_FROM_ADDRESS: 'no-reply@lab.example.com',
  EMAIL_LINK_ORIGIN: 'https://api.lab.example.com',
  // The patient's page (issue #53) on an origin of its own: the booking, rescheduled and reminder emails carry its link.
  PATIENT_PAGE_ORIGIN: 'https://patients.lab.example.com',
  // Wide enough that a booking for tomorrow falls inside it: the reminder goes at once (the "late booking" rule).
  REMINDER_HOURS_BEFORE: '48',
});

/** The next `count` SendEmail calls answer SES's throttle (429 TooManyRequestsException), as a busy account's would. */
export function throttleNextSends(count: number): void {
  failures = Array.from({ length: count }, () => ({ status: 429, type: 'TooManyRequestsException', message: 'Maximum sending rate exceeded.' }));
}

/** A refusal no retry changes: SES's 400 MessageRejected. */
export function rejectNextSend(): void {
  failures = [{ status: 400, type: 'MessageRejected', message: 'Email address is not verified.' }];
}

export interface StoredEmail {
  messageId: string;
  from: string;
  replyTo: string[];
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
  attachments: { filename: string; contentType: string; content: string }[];
  headers?: { name: string; value: string }[];
}

/** Every email the emulator received for `address`, oldest first. */
export async function emailsTo(address: string): Promise<StoredEmail[]> {
  const { emails } = (await (await fetch(`${sesEmulator}/store`)).json()) as { emails: StoredEmail[] };
  return emails.filter((email) => email.destination.to.includes(address));
}

export async function allEmails(): Promise<StoredEmail[]> {
  return ((await (await fetch(`${sesEmulator}/store`)).json()) as { emails: StoredEmail[] }).emails;
}

/** The email as the emulator renders it to MIME, read back by mailparser: what a mail client would see. */
export async function parsedEmail(messageId: string) {
  const eml = await (await fetch(`${sesEmulator}/get-emlContent?messageId=${encodeURIComponent(messageId)}`)).text();
  return simpleParser(eml);
}

/** The text of an attachment the emulator kept (base64). */
export const attachmentText = (attachment: { content: string }) => Buffer.from(attachment.content, 'base64').toString('utf8');
