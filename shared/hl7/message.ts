/**
 * An HL7 v2 message split into segments, fields, repetitions and components (HL7 v2.5.1 §2.5–2.6), with
 * the delimiters and the character set its MSH segment declares. Values stay as written: escape sequences
 * are decoded where a value is read (./text.ts), after splitting, so an escaped delimiter never splits.
 *
 * Why not a library: @medplum/core's Hl7Message did this before (issue #33). Its ES build is one module,
 * so esbuild kept 66 KB of it (FHIRPath, FHIR type tables) for these few lines, and loading it read
 * WebSocket's constants, which loads Node's undici: the results ingest paid both at every cold start.
 * Its numbering is kept (test/unit/hl7-message.test.ts compares the two on every field of our messages).
 */

import { type Hl7Charset, charsetOf } from './charset';

/** MSH-1 and the four encoding characters of MSH-2, in their order there. */
export interface Hl7Delimiters {
  readonly field: string;
  readonly component: string;
  readonly repetition: string;
  readonly escape: string;
  readonly subcomponent: string;
}

export interface Hl7Segment {
  /** `MSH`, `OBR`, `OBX`, … */
  readonly name: string;
  readonly delimiters: Hl7Delimiters;
  /** The message's character set (MSH-18), in which its \X…\ escapes name bytes. */
  readonly charset: Hl7Charset;
  /**
   * Component `component` of field `field`'s first repetition, as written; '' when absent. Numbered as HL7
   * names them, from 1: MSH-1 is the field separator itself, so MSH-9.2 is `getComponent(9, 2)`.
   */
  getComponent(field: number, component: number): string;
}

/**
 * A message whose segments are separated by CR (or LF) and whose first segment is MSH with its five
 * delimiters at characters 3–7 (the caller checks both: shared/hl7/oru-r01.ts). Its MSH-18 must name a
 * character set we read (./charset.ts charsetOf), or the message is refused (Hl7Refused).
 */
export function splitHl7Message(text: string): Hl7Segment[] {
  const delimiters: Hl7Delimiters = {
    field: text.charAt(3),
    component: text.charAt(4),
    repetition: text.charAt(5),
    escape: text.charAt(6),
    subcomponent: text.charAt(7),
  };
  const lines = text.split(/[\r\n]+/).map((line) => line.split(delimiters.field));
  // MSH-18 is ASCII: as written, it reads the same whatever set it names.
  const charset = charsetOf(componentOf(lines[0]!, delimiters, 18, 1));
  return lines.map((fields) => ({
    name: fields[0]!,
    delimiters,
    charset,
    getComponent: (field: number, component: number) => componentOf(fields, delimiters, field, component),
  }));
}

function componentOf(fields: string[], delimiters: Hl7Delimiters, field: number, component: number): string {
  // In MSH, the field separator is MSH-1 and not a separator before it: MSH-2 is the text's field 1.
  const isHeader = fields[0] === 'MSH';
  const value = !isHeader ? fields[field] : field === 1 ? delimiters.field : fields[field - 1];
  if (value === undefined) return '';
  // MSH-1 and MSH-2 are the delimiters themselves: one value, never split by them.
  if (isHeader && field <= 2) return component === 1 ? value : '';
  return value.split(delimiters.repetition)[0]!.split(delimiters.component)[component - 1] ?? '';
}
