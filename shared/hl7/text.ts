/**
 * HL7 v2 text as the lab wrote it → the text it means. ./message.ts splits a message into segments, fields
 * and components (sub-components stay joined by `&`) but leaves escape sequences as written (its getComponent
 * answers `a \F\ b` for "a | b"), so the translator decodes each value it takes here (HL7 v2.5.1 §2.7):
 * \F\ \S\ \T\ \R\ \E\ are the delimiters, \.br\ a line break, \Xhh…\ bytes in hexadecimal, read in the
 * message's character set; formatting escapes (\H\ \N\ highlighting, \.sp\, \.in\ …) carry no meaning for a
 * value and are dropped. Bytes an escape names that are no text in the declared set are refused (Hl7Refused),
 * never replaced by U+FFFD, as the message's own bytes are (./charset.ts).
 */
import { CHARSET_NAMES, decodeBytes, type Hl7Charset } from './charset';
import type { Hl7Delimiters } from './message';
import { Hl7Refused } from './report-shape';

/**
 * A value's escape sequences decoded. Refused (Hl7Refused, the caller names the field): an \X…\ escape that
 * is no whole bytes in hexadecimal or whose bytes are no text in `charset`, and the character set switches
 * \C…\ and \M…\ (the bytes after them would be read in a set we do not know).
 */
export function decodeText(raw: string, delimiters: Hl7Delimiters, charset: Hl7Charset): string {
  const { escape } = delimiters;
  if (!raw.includes(escape)) return raw;
  const named = new Map([
    ['F', delimiters.field],
    ['S', delimiters.component],
    ['T', delimiters.subcomponent],
    ['R', delimiters.repetition],
    ['E', escape],
    ['.br', '\n'],
  ]);
  const quoted = escape.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return raw.replace(new RegExp(`${quoted}([^${quoted}]*)${quoted}`, 'g'), (_match, sequence: string) => {
    const text = named.get(sequence);
    if (text !== undefined) return text;
    if (sequence.startsWith('X')) return bytesNamed(sequence.slice(1), charset);
    if (sequence.startsWith('C') || sequence.startsWith('M'))
      throw new Hl7Refused('character set escapes (\\C..\\, \\M..\\) are not supported: a message is in the one set MSH-18 declares');
    return '';
  });
}

function bytesNamed(hex: string, charset: Hl7Charset): string {
  if (!/^(?:[0-9A-Fa-f]{2})+$/.test(hex)) throw new Hl7Refused('an \\X..\\ escape must name whole bytes in hexadecimal (an even number of digits)');
  const text = decodeBytes(Buffer.from(hex, 'hex'), charset);
  if (text === undefined) throw new Hl7Refused(`an \\X..\\ escape names bytes that are no ${CHARSET_NAMES[charset]} text (the character set of MSH-18)`);
  return text;
}

/** The inverse, for a lab system writing a message (the local lab sandbox): text → a value that splits nowhere. */
export function encodeText(text: string): string {
  return text
    .replaceAll('\\', '\\E\\')
    .replaceAll('|', '\\F\\')
    .replaceAll('^', '\\S\\')
    .replaceAll('&', '\\T\\')
    .replaceAll('~', '\\R\\')
    .replace(/\r\n|\r|\n/g, '\\.br\\');
}
