/**
 * An HL7 v2 message split into segments, fields, repetitions and components (HL7 v2.5.1 §2.5–2.6), with
 * the delimiters its MSH segment declares. Values stay as written: escape sequences are decoded where a
 * value is read (./text.ts), after splitting, so an escaped delimiter never splits.
 *
 * Why not a library: @medplum/core's Hl7Message did this before (issue #33). Its ES build is one module,
 * so esbuild kept 66 KB of it (FHIRPath, FHIR type tables) for these few lines, and loading it read
 * WebSocket's constants, which loads Node's undici: the results ingest paid both at every cold start.
 * Its numbering is kept (test/unit/hl7-message.test.ts compares the two on every field of our messages).
 */

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
  /**
   * Component `component` of field `field`'s first repetition, as written; '' when absent. Numbered as HL7
   * names them, from 1: MSH-1 is the field separator itself, so MSH-9.2 is `getComponent(9, 2)`.
   */
  getComponent(field: number, component: number): string;
}

/**
 * A message whose segments are separated by CR (or LF) and whose first segment is MSH with its five
 * delimiters at characters 3–7 (the caller checks both: shared/hl7/oru-r01.ts).
 */
export function splitHl7Message(text: string): Hl7Segment[] {
  const delimiters: Hl7Delimiters = {
    field: text.charAt(3),
    component: text.charAt(4),
    repetition: text.charAt(5),
    escape: text.charAt(6),
    subcomponent: text.charAt(7),
  };
  return text.split(/[\r\n]+/).map((line) => segment(line.split(delimiters.field), delimiters));
}

function segment(fields: string[], delimiters: Hl7Delimiters): Hl7Segment {
  const name = fields[0]!;
  // In MSH, the field separator is MSH-1 and not a separator before it: MSH-2 is the text's field 1.
  const isHeader = name === 'MSH';
  const raw = (field: number) => {
    if (!isHeader) return fields[field];
    if (field === 1) return delimiters.field;
    return fields[field - 1];
  };
  return {
    name,
    delimiters,
    getComponent(field, component) {
      const value = raw(field);
      if (value === undefined) return '';
      // MSH-1 and MSH-2 are the delimiters themselves: one value, never split by them.
      if (isHeader && field <= 2) return component === 1 ? value : '';
      return value.split(delimiters.repetition)[0]!.split(delimiters.component)[component - 1] ?? '';
    },
  };
}
