/**
 * HL7 v2 text as the lab wrote it → the text it means. ./message.ts splits a message into segments,
 * fields and components (sub-components stay joined by `&`) but leaves escape sequences as written (its getComponent answers
 * `a \F\ b` for "a | b"), so the translator decodes each value it takes here (HL7 v2.5.1 §2.7):
 * \F\ \S\ \T\ \R\ \E\ are the delimiters, \.br\ a line break, \Xhh…\ bytes in hexadecimal; formatting
 * escapes (\H\ \N\ highlighting, \.sp\, \.in\ …) carry no meaning for a value and are dropped.
 */
import type { Hl7Delimiters } from './message';

export function decodeText(raw: string, delimiters: Hl7Delimiters): string {
  const { escape } = delimiters;
  if (!raw.includes(escape)) return raw;
  const named: Record<string, string> = {
    F: delimiters.field,
    S: delimiters.component,
    T: delimiters.subcomponent,
    R: delimiters.repetition,
    E: escape,
  };
  const quoted = escape.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return raw.replace(new RegExp(`${quoted}([^${quoted}]*)${quoted}`, 'g'), (_match, sequence: string) => {
    if (sequence in named) return named[sequence]!;
    if (sequence === '.br') return '\n';
    if (/^X([0-9A-Fa-f]{2})+$/.test(sequence)) return Buffer.from(sequence.slice(1), 'hex').toString('utf8');
    return '';
  });
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
