/**
 * The fields of an ORU^R01 message as our report reads them (shared/hl7/oru-r01.ts): HL7's code tables to
 * ours, and a segment's values, statuses, units, ranges, findings, attachments and times, each refused with
 * a reason naming the field, never its value.
 */
import { isCalendarDate } from '../domain/calendar';
import { type Interpretation, isStorableNumber, type RejectionReason, type ResultStatus, STORABLE_NUMBER, type ValueOperator } from '../domain/results';
import type { Hl7Segment } from './message';
import { decodeText } from './text';
import { type Attachment, Hl7Refused, type KnownBiomarker, LOCAL_CODING_SYSTEM } from './report-shape';

export type Status = ResultStatus | 'not_performed' | 'pending';
/** OBX-11 (HL7 table 0085) → what the result is. */
export const RESULT_STATUS: Readonly<Record<string, Status>> = {
  F: 'final',
  C: 'corrected',
  P: 'preliminary',
  R: 'preliminary', // entered, not verified
  S: 'preliminary', // partial
  X: 'not_performed', // results cannot be obtained
  I: 'pending', // specimen in lab, no result yet
  O: 'pending', // order detail only
};
/** OBR-25 (HL7 table 0123), the default of an OBX without OBX-11: the order's status. */
export const ORDER_STATUS: Readonly<Record<string, Status>> = {
  F: 'final',
  C: 'corrected',
  P: 'preliminary',
  R: 'preliminary', // stored, not verified
  A: 'preliminary', // some results available
  X: 'not_performed', // no results: the order cannot be done
  I: 'pending', // in the lab
  S: 'pending', // scheduled
  O: 'pending', // order received
};

/** OBX-8 abnormal flags (HL7 table 0078) → interpretation; flags absent here (<, >, S, R, …) leave it derived. */
export const INTERPRETATION: Readonly<Record<string, Interpretation>> = {
  N: 'normal',
  L: 'low',
  H: 'high',
  LL: 'critical_low',
  HH: 'critical_high',
  A: 'abnormal',
  AA: 'abnormal',
};

/**
 * SPM-21 specimen reject reasons (HL7 table 0490) → ours; any other code (RB broken container, RR improper
 * storage, …) is `other`, its text the comment.
 */
export const REJECT_REASON: Readonly<Record<string, RejectionReason>> = {
  RH: 'haemolysed',
  RC: 'clotted',
  QS: 'insufficient_volume',
  RA: 'unlabelled',
  RE: 'unlabelled',
  RI: 'unlabelled',
  RM: 'unlabelled',
  EX: 'too_old',
  RN: 'contaminated',
};

export const OPERATOR: Readonly<Record<string, ValueOperator>> = { '': 'eq', '=': 'eq', '<': 'lt', '<=': 'le', '>': 'gt', '>=': 'ge' };
export const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
export const HL7_TIMESTAMP = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})?(?:(\d{2})(?:\.(\d{1,4}))?)?)?([+-]\d{4})?$/;
/** Ranges as labs write them in OBX-7: `13.5-17.5`, `<5`, `>=40`. */
export const RANGE = /^\s*(?:(-?\d+(?:\.\d+)?)\s*-\s*(-?\d+(?:\.\d+)?)|(<=?|>=?)\s*(-?\d+(?:\.\d+)?))\s*$/;

/**
 * Longer numbers are refused before they are read: every number the table holds (isStorableNumber) can be
 * written in fewer characters (the smallest, 1E-130, with a double's 17 digits takes 148), and a lab's
 * 100,000 digits then cost a length check, not a parse.
 */
export const MAX_NUMBER_LENGTH = 200;

/** A component, decoded (escape sequences → text); an escape that names no text is refused, naming the field. */
export function value(segment: Hl7Segment, field: number, component: number): string {
  try {
    return decodeText(segment.getComponent(field, component), segment.delimiters, segment.charset).trim();
  } catch (error) {
    if (error instanceof Hl7Refused) throw new Hl7Refused(`${segment.name}-${field}: ${error.message}`);
    throw error;
  }
}

/** A number the lab wrote (`subject`: OBX-5, a bound of OBX-7), refused unless the table can hold it as sent. */
function storable(text: string, subject: string, where: string): number {
  const number = Number(text);
  if (!isStorableNumber(number)) throw new Hl7Refused(`${where}: ${subject} ${STORABLE_NUMBER}`);
  return number;
}

export function statusOf(segment: Hl7Segment, order: Hl7Segment, where: string): Status {
  const code = value(segment, 11, 1);
  if (code) {
    const status = RESULT_STATUS[code];
    if (!status) throw new Hl7Refused(`${where}: OBX-11 result status ${code.slice(0, 2)} is not supported (F, C, P, R, S, X, I, O)`);
    return status;
  }
  const orderCode = value(order, 25, 1);
  if (!orderCode) throw new Hl7Refused(`${where}: OBX-11 (result status) is required when OBR-25 gives none`);
  const status = ORDER_STATUS[orderCode];
  if (!status) throw new Hl7Refused(`${where}: OBR-25 result status ${orderCode.slice(0, 2)} is not supported (F, C, P, R, A, X, I, S, O)`);
  return status;
}

/** OBX-5 of a numeric observation: NM (`14.2`, or `<0.01` as many labs write it) or SN (`<^0.01`). */
export function measurement(segment: Hl7Segment, valueType: string, where: string): { value: number; value_operator: ValueOperator } {
  let comparator: string;
  let number: string;
  if (valueType === 'SN') {
    if (value(segment, 5, 3) || value(segment, 5, 4))
      throw new Hl7Refused(`${where}: OBX-5 SN ranges and ratios are not supported, only <comparator>^<number>`);
    comparator = value(segment, 5, 1);
    number = value(segment, 5, 2);
  } else if (valueType === 'NM') {
    // `s`: a value with a line break (\.br\) is no number, refused below rather than unmatched here.
    const match = /^(<=?|>=?|=)?\s*(.*)$/s.exec(value(segment, 5, 1))!;
    comparator = match[1] ?? '';
    number = match[2]!;
  } else {
    throw new Hl7Refused(`${where}: OBX-2 value type ${valueType.slice(0, 3) || '(none)'} is not supported for a clinical result (NM, SN)`);
  }
  const operator = OPERATOR[comparator];
  if (number.length > MAX_NUMBER_LENGTH) throw new Hl7Refused(`${where}: OBX-5 must be a number of at most ${MAX_NUMBER_LENGTH} characters`);
  if (!operator || !NUMBER.test(number)) throw new Hl7Refused(`${where}: OBX-5 is not a number (with an optional <, <=, >, >=)`);
  return { value: storable(number, 'OBX-5', where), value_operator: operator };
}

/** OBX-6: the unit's text, and our unit id when the lab sends it as the alternate identifier (…^<id>^^99LAB). */
export function unitOf(segment: Hl7Segment): { unit_id: number | null; unit: string | null } {
  const unit = value(segment, 6, 1) || null;
  const alternate = value(segment, 6, 4);
  const unitId = value(segment, 6, 6) === LOCAL_CODING_SYSTEM && /^\d{1,9}$/.test(alternate) ? Number(alternate) : null;
  return { unit_id: unitId, unit };
}

export function rangeOf(text: string, where: string) {
  if (!text) return null;
  // Two numbers, a comparator or a dash, spaces: longer is no range of numbers the table holds.
  if (text.length > 2 * MAX_NUMBER_LENGTH + 20)
    throw new Hl7Refused(`${where}: OBX-7 must be a reference range of at most ${2 * MAX_NUMBER_LENGTH + 20} characters`);
  const match = RANGE.exec(text);
  if (!match) throw new Hl7Refused(`${where}: OBX-7 reference range not understood (low-high, <high, >low)`);
  const [, low, high, comparator, bound] = match;
  const number = (text: string) => storable(text, 'each bound of OBX-7', where);
  const range = { normal_min: null as number | null, normal_max: null as number | null, optimal_min: null, optimal_max: null };
  if (low !== undefined) return { ...range, normal_min: number(low), normal_max: number(high!) };
  if (comparator!.startsWith('<')) return { ...range, normal_max: number(bound!) };
  return { ...range, normal_min: number(bound!) };
}

/**
 * A genotype (OBX-2 ST or CWE, OBX-5 the genotype): the first NTE is its clinical significance, the
 * others its risk description. Variants are not carried over HL7 here (docs/hl7.md).
 */
export function geneticResult(segment: Hl7Segment, biomarker: KnownBiomarker, notes: string[], testedAt: string, status: ResultStatus, where: string) {
  const genotype = value(segment, 5, 1);
  if (!genotype) throw new Hl7Refused(`${where}: OBX-5 (the genotype) is required`);
  return {
    biomarker_id: biomarker.id,
    gene: biomarker.gene ?? '',
    genotype,
    clinical_significance: notes[0] ?? '',
    risk_description: notes.slice(1).join('\n'),
    tested_at: testedAt,
    comment: null,
    variants: [],
    result_status: status,
  };
}

/** OBX-2 ED: a PDF, Base64 (OBX-5 ^application^pdf^Base64^<data>); OBX-3's text names the file. */
export function attachment(segment: Hl7Segment, where: string): Attachment {
  const [type, subtype, encoding] = [3, 4, 5].map((c) => value(segment, 5, c - 1).toLowerCase());
  if (!['application', 'ap'].includes(type!) || subtype !== 'pdf' || encoding !== 'base64')
    throw new Hl7Refused(`${where}: OBX-5 encapsulated data must be application/pdf in Base64`);
  const bytes = Buffer.from(segment.getComponent(5, 5), 'base64');
  if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-') throw new Hl7Refused(`${where}: OBX-5 holds no PDF`);
  const name = value(segment, 3, 2);
  return { file_name: /\.pdf$/i.test(name) ? name : 'lab-report.pdf', content_type: 'application/pdf', bytes };
}

/**
 * An HL7 date/time with its UTC offset → an ISO instant. Parsed here, not by @medplum/core's
 * parseHl7DateTime, which answers 1900-01-01 for garbage, rolls 2026-13-40 over into 2027 and reads `.5`
 * as 5 ms. Without an offset the instant is the sender's local time, which we cannot know: refused.
 */
export function instant(text: string, field: string): string {
  if (!text) throw new Hl7Refused(`${field} (date/time) is required`);
  const match = HL7_TIMESTAMP.exec(text);
  const date = match && calendarDate(text);
  if (!match || !date) throw new Hl7Refused(`${field} is not an HL7 date/time (YYYYMMDD[HH[MM[SS[.S]]]]+/-ZZZZ)`);
  const [, , , , hour = '00', minute = '00', second = '00', fraction = '', offset] = match;
  if (!offset) throw new Hl7Refused(`${field} must carry its UTC offset (+0100)`);
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) throw new Hl7Refused(`${field} is not an HL7 date/time (time out of range)`);
  const local = Date.parse(`${date}T${hour}:${minute}:${second}.${fraction.padEnd(3, '0').slice(0, 3)}Z`);
  const offsetMinutes = (offset.startsWith('-') ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(3, 5)));
  return new Date(local - offsetMinutes * 60_000).toISOString();
}

/** OBX-14 or OBR-7: the calendar day of the test; absent when empty, refused when it is no date. */
export function testDate(text: string, where: string): string | undefined {
  if (!text) return undefined;
  const date = calendarDate(text);
  if (!date) throw new Hl7Refused(`${where}: the observation date/time is not an HL7 date/time`);
  return date;
}

/** The date of an HL7 date/time as the lab wrote it (its own calendar day), when it is a real date. */
export function calendarDate(text: string): string | undefined {
  if (!text || !HL7_TIMESTAMP.test(text)) return undefined;
  const date = `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}`;
  return isCalendarDate(date) ? date : undefined;
}

/** One line of at most `max` characters: line breaks, tabs and other controls a decoded value may hold become spaces. */
const oneLine = (text: string, max: number) =>
  text
    .replace(/[\p{Cc}\p{Cf}\s]+/gu, ' ')
    .trim()
    .slice(0, max);

/**
 * PID-5 and PID-7: whom the lab's system says the sample is from, for the queue of results whose barcode
 * matches no order (docs/hl7.md "Results that match no order"), where people match them by hand. Never a
 * reason to refuse a message: a name or date that cannot be read is null. The name as the lab wrote it:
 * the family name, then given, middle names and suffix (`Muster^Erika^^^^^L` → `Muster, Erika`).
 */
export function patientOf(pid: Hl7Segment | undefined): { name: string | null; date_of_birth: string | null } | undefined {
  if (!pid) return undefined;
  const read = (field: number, component: number) => {
    try {
      return value(pid, field, component);
    } catch {
      return '';
    }
  };
  const [family, given, middle, suffix] = [1, 2, 3, 4].map((component) => oneLine(read(5, component), 100));
  const givenNames = [given, middle, suffix].filter(Boolean).join(' ');
  const name = oneLine([family, givenNames].filter(Boolean).join(', '), 200) || null;
  const dateOfBirth = calendarDate(read(7, 1)) ?? null;
  return name === null && dateOfBirth === null ? undefined : { name, date_of_birth: dateOfBirth };
}
