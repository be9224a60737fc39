/**
 * An HL7 v2.5.1 ORU^R01 message from the lab → the report it means, in the shape of our own
 * `LabResultsReported` detail (docs/hl7.md lists every segment and field read). The translation is pure:
 * the caller resolves observation codes to biomarkers, uploads the PDFs it extracts, and checks the
 * result against the same schema as a JSON report, so both paths obey one set of rules.
 *
 * Parsing is @medplum/core's (segments, fields, components, repetitions, MSH-1/MSH-2 delimiters);
 * decoding escape sequences is ours (./text.ts): the library leaves them as written.
 *
 * A message that cannot mean one report is refused (Hl7Refused) with a reason naming segments, fields
 * and our rules only — never a value, a name or a barcode: the reason is logged.
 */
import { Hl7Message, type Hl7Segment } from '@medplum/core';
import { isCalendarDate } from '../domain/calendar';
import type { Interpretation, RejectionReason, ResultStatus, ValueOperator } from '../domain/results';
import { derivedUuid } from '../derived-uuid';
import { decodeText } from './text';

export class Hl7Refused extends Error {
  override name = 'Hl7Refused';
}

/** OBX-3: the observation's code and its coding system (LN: LOINC; 99LAB: our biomarker id). */
export interface ObservationCode {
  code: string;
  system: string;
}
export interface KnownBiomarker {
  id: number;
  kind: 'clinical' | 'genetic';
  gene?: string;
}
export type BiomarkerLookup = (code: ObservationCode) => KnownBiomarker | undefined;

/** Our own coding system in OBX-3 and OBX-6 alternate identifiers: a biomarker id, a unit id. */
export const LOCAL_CODING_SYSTEM = '99LAB';

export interface Attachment {
  file_name: string;
  content_type: 'application/pdf';
  bytes: Buffer;
}

export interface TranslatedReport {
  /** The report as a LabResultsReported detail, its documents still to be uploaded (`attachments`). */
  detail: Record<string, unknown>;
  attachments: Attachment[];
}

type Status = ResultStatus | 'not_performed' | 'pending';
/** OBX-11 (HL7 table 0085) → what the result is. */
const RESULT_STATUS: Readonly<Record<string, Status>> = {
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
const ORDER_STATUS: Readonly<Record<string, Status>> = {
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
const INTERPRETATION: Readonly<Record<string, Interpretation>> = {
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
const REJECT_REASON: Readonly<Record<string, RejectionReason>> = {
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

const OPERATOR: Readonly<Record<string, ValueOperator>> = { '': 'eq', '=': 'eq', '<': 'lt', '<=': 'le', '>': 'gt', '>=': 'ge' };
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const HL7_TIMESTAMP = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})?(?:(\d{2})(?:\.(\d{1,4}))?)?)?([+-]\d{4})?$/;
/** Ranges as labs write them in OBX-7: `13.5-17.5`, `<5`, `>=40`. */
const RANGE = /^\s*(?:(-?\d+(?:\.\d+)?)\s*-\s*(-?\d+(?:\.\d+)?)|(<=?|>=?)\s*(-?\d+(?:\.\d+)?))\s*$/;

interface Observation {
  segment: Hl7Segment;
  /** Its position among the message's OBX segments, from 1: what refusals name. */
  position: number;
  notes: string[];
  order: Hl7Segment;
}

export function translateOruR01(text: string, lookup: BiomarkerLookup): TranslatedReport {
  const message = parse(text);
  const header = message.header;
  const type = `${header.getComponent(9, 1)}^${header.getComponent(9, 2)}`;
  if (type !== 'ORU^R01') throw new Hl7Refused(`MSH-9 must be ORU^R01 (an observation result), got ${type.slice(0, 20)}`);
  if (!header.getComponent(12, 1).startsWith('2.')) throw new Hl7Refused('MSH-12 must name an HL7 version 2.x');
  const controlId = header.getComponent(10, 1);
  if (!controlId) throw new Hl7Refused('MSH-10 (message control id) is required: it makes a message sent twice count once');
  const reportedAt = instant(header.getComponent(7, 1), 'MSH-7');

  const { observations, orders, rejectReason } = structure(message);
  if (orders.length === 0) throw new Hl7Refused('the message has no OBR segment');
  const barcodes = new Set(orders.map((order) => value(order, 2, 1) || ''));
  for (const orc of message.getAllSegments('ORC')) if (value(orc, 2, 1)) barcodes.add(value(orc, 2, 1));
  barcodes.delete('');
  if (barcodes.size !== 1) throw new Hl7Refused(`OBR-2/ORC-2 (placer order number: the sample's barcode) must name one sample, found ${barcodes.size}`);

  const clinical: Record<string, unknown>[] = [];
  const genetic: Record<string, unknown>[] = [];
  const attachments: Attachment[] = [];
  const notPerformed: number[] = [];
  for (const observation of observations) {
    const { segment, position } = observation;
    const where = `OBX ${position}`;
    const valueType = value(segment, 2, 1);
    if (valueType === 'ED') {
      attachments.push(attachment(segment, where));
      continue;
    }
    const status = statusOf(segment, observation.order, where);
    if (status === 'pending') continue;
    const code = { code: value(segment, 3, 1), system: value(segment, 3, 3) };
    const biomarker = lookup(code);
    if (!biomarker) throw new Hl7Refused(`${where}: OBX-3 names no biomarker of the catalog (LOINC in system LN, or our id in ${LOCAL_CODING_SYSTEM})`);
    if (status === 'not_performed') {
      notPerformed.push(biomarker.id);
      continue;
    }
    const testedAt = testDate(value(segment, 14, 1), where) ?? testDate(value(observation.order, 7, 1), 'OBR-7') ?? reportedAt.slice(0, 10);
    const comment = observation.notes.length > 0 ? observation.notes.join('\n') : null;
    if (biomarker.kind === 'genetic') {
      genetic.push(geneticResult(segment, biomarker, observation.notes, testedAt, status, where));
      continue;
    }
    clinical.push({
      biomarker_id: biomarker.id,
      ...measurement(segment, valueType, where),
      ...unitOf(segment),
      reference_range_lab: rangeOf(value(segment, 7, 1), where),
      tested_at: testedAt,
      comment,
      result_status: status,
      interpretation: INTERPRETATION[value(segment, 8, 1)] ?? null,
    });
  }

  // OBX-11 X names the tests not performed; OBR-25 X with no OBX-level X rejects the whole specimen.
  const rejected = notPerformed.length > 0 || orders.some((order) => value(order, 25, 1) === 'X');
  const rejection = rejected
    ? {
        reason_code: rejectReason?.reason ?? 'other',
        comment: rejectReason?.text ?? null,
        ...(notPerformed.length > 0 ? { biomarker_ids: notPerformed } : {}),
      }
    : undefined;

  return {
    detail: {
      // The same message sent twice (the lab's retry) is one report. Its time is part of the name: a lab
      // system whose control ids start again after a restart sends a new message, not a duplicate.
      event_id: derivedUuid(['hl7', header.getComponent(3, 1), header.getComponent(4, 1), controlId, header.getComponent(7, 1)]),
      barcode: [...barcodes][0],
      reported_at: reportedAt,
      clinical_results: clinical,
      genetic_results: genetic,
      documents: [],
      ...(rejection ? { rejection } : {}),
    },
    attachments,
  };
}

function parse(text: string): Hl7Message {
  // Files written on other systems end segments with \n or \r\n; HL7 separates them with \r. A line
  // break inside a value is written \.br\, so no value is split by this.
  const normalised = text
    .replace(/\r\n|\n/g, '\r')
    .replace(/^\uFEFF/, '')
    .trim();
  if (!normalised.startsWith('MSH')) throw new Hl7Refused('an HL7 v2 message starts with its MSH segment');
  // MSH-1 and the four encoding characters of MSH-2, all different, then MSH-1 again: a shorter MSH-2 would
  // make the parser take its escape character from MSH-3.
  const delimiters = normalised.slice(3, 8);
  if (new Set(delimiters).size !== 5 || normalised[8] !== normalised[3] || /[\sA-Za-z0-9]/.test(delimiters))
    throw new Hl7Refused('MSH-1 and MSH-2 must declare five distinct delimiters (|^~\\&)');
  try {
    return Hl7Message.parse(normalised);
  } catch {
    throw new Hl7Refused('not an HL7 v2 message');
  }
}

/** The message's observations in order, each with the NTE segments after it and the OBR it belongs to. */
function structure(message: Hl7Message) {
  const observations: Observation[] = [];
  const orders: Hl7Segment[] = [];
  let rejectReason: { reason: RejectionReason; text: string | null } | undefined;
  let current: Observation | undefined;
  for (const segment of message.segments) {
    switch (segment.name) {
      case 'OBR':
        orders.push(segment);
        current = undefined;
        break;
      case 'OBX': {
        const order = orders.at(-1);
        if (!order) throw new Hl7Refused(`OBX ${observations.length + 1} comes before any OBR`);
        current = { segment, position: observations.length + 1, notes: [], order };
        observations.push(current);
        break;
      }
      case 'NTE':
        // A note on the order (before any OBX) says nothing about one result: not kept.
        if (current) current.notes.push(value(segment, 3, 1));
        break;
      case 'SPM': {
        const code = value(segment, 21, 1);
        if (code) rejectReason = { reason: REJECT_REASON[code] ?? 'other', text: value(segment, 21, 2) || null };
        current = undefined;
        break;
      }
      default:
        // MSH, PID, PV1, ORC, … identify and route; the barcode (OBR-2/ORC-2) is what matches the sample.
        current = undefined;
    }
  }
  return { observations, orders, rejectReason };
}

/** A component, decoded (escape sequences → text). */
function value(segment: Hl7Segment, field: number, component: number): string {
  return decodeText(segment.getComponent(field, component), segment.context).trim();
}

function statusOf(segment: Hl7Segment, order: Hl7Segment, where: string): Status {
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
function measurement(segment: Hl7Segment, valueType: string, where: string): { value: number; value_operator: ValueOperator } {
  let comparator: string;
  let number: string;
  if (valueType === 'SN') {
    if (value(segment, 5, 3) || value(segment, 5, 4))
      throw new Hl7Refused(`${where}: OBX-5 SN ranges and ratios are not supported, only <comparator>^<number>`);
    comparator = value(segment, 5, 1);
    number = value(segment, 5, 2);
  } else if (valueType === 'NM') {
    const match = /^(<=?|>=?|=)?\s*(.*)$/.exec(value(segment, 5, 1))!;
    comparator = match[1] ?? '';
    number = match[2]!;
  } else {
    throw new Hl7Refused(`${where}: OBX-2 value type ${valueType.slice(0, 3) || '(none)'} is not supported for a clinical result (NM, SN)`);
  }
  const operator = OPERATOR[comparator];
  if (!operator || !NUMBER.test(number)) throw new Hl7Refused(`${where}: OBX-5 is not a number (with an optional <, <=, >, >=)`);
  return { value: Number(number), value_operator: operator };
}

/** OBX-6: the unit's text, and our unit id when the lab sends it as the alternate identifier (…^<id>^^99LAB). */
function unitOf(segment: Hl7Segment): { unit_id: number | null; unit: string | null } {
  const unit = value(segment, 6, 1) || null;
  const alternate = value(segment, 6, 4);
  const unitId = value(segment, 6, 6) === LOCAL_CODING_SYSTEM && /^\d{1,9}$/.test(alternate) ? Number(alternate) : null;
  return { unit_id: unitId, unit };
}

function rangeOf(text: string, where: string) {
  if (!text) return null;
  const match = RANGE.exec(text);
  if (!match) throw new Hl7Refused(`${where}: OBX-7 reference range not understood (low-high, <high, >low)`);
  const [, low, high, comparator, bound] = match;
  const range = { normal_min: null as number | null, normal_max: null as number | null, optimal_min: null, optimal_max: null };
  if (low !== undefined) return { ...range, normal_min: Number(low), normal_max: Number(high) };
  if (comparator!.startsWith('<')) return { ...range, normal_max: Number(bound) };
  return { ...range, normal_min: Number(bound) };
}

/**
 * A genotype (OBX-2 ST or CWE, OBX-5 the genotype): the first NTE is its clinical significance, the
 * others its risk description. Variants are not carried over HL7 here (docs/hl7.md).
 */
function geneticResult(segment: Hl7Segment, biomarker: KnownBiomarker, notes: string[], testedAt: string, status: ResultStatus, where: string) {
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
function attachment(segment: Hl7Segment, where: string): Attachment {
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
function instant(text: string, field: string): string {
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
function testDate(text: string, where: string): string | undefined {
  if (!text) return undefined;
  const date = calendarDate(text);
  if (!date) throw new Hl7Refused(`${where}: the observation date/time is not an HL7 date/time`);
  return date;
}

/** The date of an HL7 date/time as the lab wrote it (its own calendar day), when it is a real date. */
function calendarDate(text: string): string | undefined {
  if (!text || !HL7_TIMESTAMP.test(text)) return undefined;
  const date = `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}`;
  return isCalendarDate(date) ? date : undefined;
}
