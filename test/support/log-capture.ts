/**
 * Every log line a test's code writes, and a scan of them for values that must never be logged.
 *
 * The service's logger (shared/logger.ts) and its metrics (shared/metrics.ts) write to process.stdout and
 * process.stderr, looking up `stream.write` at each call; everything else (the
 * local stack's messages) uses the global console, which vitest replaces in its workers with
 * one that does not reach process.stdout. So both are wrapped: the two streams' `write` and the console's
 * methods. What is captured is kept from the test output (it is what may hold the leak).
 */
import { format } from 'node:util';

const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir'] as const;

export interface LogCapture {
  /** The lines written so far, without empty ones. */
  lines(): string[];
  /** Puts the streams and the console back. */
  stop(): void;
}

export function captureLogs(): LogCapture {
  let text = '';
  const streams = [process.stdout, process.stderr] as const;
  const originalWrites = streams.map((stream) => stream.write);
  for (const stream of streams) {
    stream.write = ((chunk: string | Uint8Array, encodingOrCallback?: unknown, callback?: unknown) => {
      text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
      if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
      return true;
    }) as typeof stream.write;
  }
  const originalConsole = CONSOLE_METHODS.map((method) => console[method]);
  for (const method of CONSOLE_METHODS) {
    console[method] = (...args: unknown[]) => void (text += `${format(...args)}\n`);
  }
  return {
    lines: () => text.split('\n').filter((line) => line.trim() !== ''),
    stop: () => {
      streams.forEach((stream, i) => (stream.write = originalWrites[i] as typeof stream.write));
      CONSOLE_METHODS.forEach((method, i) => (console[method] = originalConsole[i] as (typeof console)[typeof method]));
    },
  };
}

/** One way a value may be written: its label says which, so a failure can name the form without the value. */
export interface Form {
  label: string;
  text: string;
}

/** JSON's escapes of every character outside printable ASCII, as some JSON writers emit them. */
const asciiEscaped = (value: string) => value.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** The value as sent, JSON-escaped, URL-encoded (both space styles); compared case-insensitively. */
export function formsOf(value: string, label = 'as sent'): Form[] {
  const forms: Form[] = [
    { label, text: value },
    { label: `${label}, JSON-escaped`, text: JSON.stringify(value).slice(1, -1) },
    { label: `${label}, JSON-escaped to ASCII`, text: asciiEscaped(JSON.stringify(value).slice(1, -1)) },
    { label: `${label}, URL-encoded`, text: encodeURIComponent(value) },
    { label: `${label}, form-encoded`, text: encodeURIComponent(value).replace(/%20/g, '+') },
  ];
  const seen = new Set<string>();
  return forms.filter((form) => !seen.has(form.text.toLowerCase()) && seen.add(form.text.toLowerCase()));
}

/** A date of birth (YYYY-MM-DD) in every notation we could think of. */
export function dateForms(isoDate: string): Form[] {
  const [y, m, d] = isoDate.split('-') as [string, string, string];
  const month = new Date(`${isoDate}T00:00:00Z`).toLocaleString('en', { month: 'long', timeZone: 'UTC' });
  const epochMs = Date.UTC(Number(y), Number(m) - 1, Number(d));
  const notations: [string, string][] = [
    ['ISO', isoDate],
    ['dd.mm.yyyy', `${d}.${m}.${y}`],
    ['d.m.yyyy', `${Number(d)}.${Number(m)}.${y}`],
    ['dd.mm.yy', `${d}.${m}.${y.slice(2)}`],
    ['mm/dd/yyyy', `${m}/${d}/${y}`],
    ['dd/mm/yyyy', `${d}/${m}/${y}`],
    ['yyyymmdd', `${y}${m}${d}`],
    ['ddmmyyyy', `${d}${m}${y}`],
    ['yyyy-m-d', `${y}-${Number(m)}-${Number(d)}`],
    ['yyyy/mm/dd', `${y}/${m}/${d}`],
    ['d Month yyyy', `${Number(d)} ${month} ${y}`],
    ['Month d, yyyy', `${month} ${Number(d)}, ${y}`],
    ['epoch milliseconds', String(epochMs)],
    ['epoch seconds', String(epochMs / 1000)],
  ];
  return notations.flatMap(([label, text]) => formsOf(text, label));
}

export interface Finding {
  kind: string;
  form: string;
  /** Where, by position and the line's own structure: never the line itself, which holds the value. */
  where: string;
}

/** Runs of base64 (standard or URL-safe) long enough to hide a value: a logged request body would be one. */
const BASE64_RUN = /[A-Za-z0-9+/_-]{16,}={0,2}/g;

function decodedRuns(line: string): string[] {
  return [...line.matchAll(BASE64_RUN)].map((match) =>
    Buffer.from(match[0], match[0].includes('-') || match[0].includes('_') ? 'base64url' : 'base64').toString('utf8'),
  );
}

/** Every form of every kind cut out of `text`, so that a failure message never repeats a value. */
function redact(text: string, kinds: Record<string, Form[]>): string {
  const forms = Object.values(kinds)
    .flat()
    .map((form) => form.text)
    .sort((a, b) => b.length - a.length);
  let redacted = text;
  for (const form of forms) redacted = redacted.replace(new RegExp(form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), '[redacted]');
  return redacted;
}

function whereIs(line: string, index: number, kinds: Record<string, Form[]>): string {
  try {
    const parsed = JSON.parse(line) as Record<string, unknown>;
    const pick = (name: string) => (typeof parsed[name] === 'string' ? ` ${name}=${redact(String(parsed[name]), kinds)}` : '');
    return `line ${index} (JSON, level=${String(parsed.level)}${pick('message')}${pick('route')}${pick('function_name')}, keys: ${Object.keys(parsed).join(',')})`;
  } catch {
    return `line ${index} (text, ${line.length} characters)`;
  }
}

/** Every line (or base64 run decoded from it) holding a form of a value of `kinds`, case-insensitively. */
export function findLeaks(lines: string[], kinds: Record<string, Form[]>): Finding[] {
  const findings: Finding[] = [];
  lines.forEach((line, index) => {
    const haystacks = [line, ...decodedRuns(line)].map((text) => text.toLowerCase());
    for (const [kind, forms] of Object.entries(kinds)) {
      const form = forms.find((f) => haystacks.some((haystack) => haystack.includes(f.text.toLowerCase())));
      if (form) findings.push({ kind, form: form.label, where: whereIs(line, index, kinds) });
    }
  });
  return findings;
}
