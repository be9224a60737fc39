/**
 * An HL7 v2.5.1 ORU^R01 message from the lab → the report it means, in the shape of our own
 * `LabResultsReported` detail (docs/hl7.md lists every segment and field read). The translation is pure:
 * the caller resolves observation codes to biomarkers, uploads the PDFs it extracts, and checks the
 * result against the same schema as a JSON report, so both paths obey one set of rules.
 *
 * The message's bytes are read in the character set its MSH-18 declares (decodeOruR01, ./charset.ts);
 * splitting is ./message.ts's (segments, fields, components, repetitions, MSH-1/MSH-2 delimiters); escape
 * sequences are decoded where a value is read (./text.ts).
 *
 * A message that cannot mean one report is refused (Hl7Refused) with a reason naming segments, fields
 * and our rules only — never a value, a name or a barcode: the reason is logged.
 *
 * Here: the message's structure and the report it makes; each field's reading in oru-r01-fields.ts.
 */
import type { RejectionReason } from '../domain/results';
import { derivedUuid } from '../derived-uuid';
import { type Hl7Segment, splitHl7Message } from './message';
import { decodeMessage } from './charset';
import { type Attachment, Hl7Refused, type BiomarkerLookup, LOCAL_CODING_SYSTEM, type TranslatedReport } from './report-shape';
import {
  attachment,
  geneticResult,
  INTERPRETATION,
  instant,
  measurement,
  patientOf,
  rangeOf,
  REJECT_REASON,
  statusOf,
  testDate,
  unitOf,
  value,
} from './oru-r01-fields';

export {
  type Attachment,
  type BiomarkerLookup,
  Hl7Refused,
  type KnownBiomarker,
  LOCAL_CODING_SYSTEM,
  type ObservationCode,
  type TranslatedReport,
} from './report-shape';

interface Observation {
  segment: Hl7Segment;
  /** Its position among the message's OBX segments, from 1: what refusals name. */
  position: number;
  notes: string[];
  order: Hl7Segment;
}

const ASCII_SPACE = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20]);
/**
 * The lab's bytes → the message's text, in the character set its MSH-18 declares (UTF-8 when empty). MSH-1,
 * MSH-2 and MSH-18 are ASCII, so the MSH segment is read as Latin-1 (every byte a character) to find the
 * set before the message is decoded in it. Bytes that are no text in that set are refused (./charset.ts).
 */
export function decodeOruR01(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The MSH segment: after a UTF-8 byte order mark and blank lines, up to the first CR or LF.
  let start = buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0;
  while (start < buffer.length && ASCII_SPACE.has(buffer[start]!)) start++;
  const ends = [buffer.indexOf(0x0d, start), buffer.indexOf(0x0a, start)].filter((end) => end >= 0);
  const [header] = parse(buffer.toString('latin1', start, ends.length > 0 ? Math.min(...ends) : buffer.length));
  return decodeMessage(bytes, header!.charset);
}

/** The report's event_id of a message: from MSH-3, MSH-4, MSH-10 and MSH-7 as written (the lab sandbox names the unmatched result it makes by it). */
export const hl7EventId = (sendingApplication: string, sendingFacility: string, controlId: string, time: string) =>
  derivedUuid(['hl7', sendingApplication, sendingFacility, controlId, time]);

export function translateOruR01(text: string, lookup: BiomarkerLookup): TranslatedReport {
  const segments = parse(text);
  // parse() made sure the message starts with its MSH segment.
  const header = segments[0]!;
  const type = `${header.getComponent(9, 1)}^${header.getComponent(9, 2)}`;
  if (type !== 'ORU^R01') throw new Hl7Refused(`MSH-9 must be ORU^R01 (an observation result), got ${type.slice(0, 20)}`);
  if (!header.getComponent(12, 1).startsWith('2.')) throw new Hl7Refused('MSH-12 must name an HL7 version 2.x');
  const controlId = header.getComponent(10, 1);
  if (!controlId) throw new Hl7Refused('MSH-10 (message control id) is required: it makes a message sent twice count once');
  const reportedAt = instant(header.getComponent(7, 1), 'MSH-7');

  const { observations, orders, rejectReason } = structure(segments);
  if (orders.length === 0) throw new Hl7Refused('the message has no OBR segment');
  const barcodes = new Set(orders.map((order) => value(order, 2, 1) || ''));
  for (const orc of segments.filter((segment) => segment.name === 'ORC')) if (value(orc, 2, 1)) barcodes.add(value(orc, 2, 1));
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

  // Read for a message whose barcode matches no order only (it is then kept for matching by hand); the ingest never stores it otherwise.
  const patient = patientOf(segments.find((segment) => segment.name === 'PID'));

  return {
    detail: {
      // The same message sent twice (the lab's retry) is one report. Its time is part of the name: a lab
      // system whose control ids start again after a restart sends a new message, not a duplicate.
      event_id: hl7EventId(header.getComponent(3, 1), header.getComponent(4, 1), controlId, header.getComponent(7, 1)),
      barcode: [...barcodes][0],
      reported_at: reportedAt,
      clinical_results: clinical,
      genetic_results: genetic,
      documents: [],
      ...(rejection ? { rejection } : {}),
      ...(patient ? { patient } : {}),
    },
    attachments,
  };
}

function parse(text: string): Hl7Segment[] {
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
  // ASCII punctuation: MSH-2 and MSH-18 are read before the message's character set is known.
  if (new Set(delimiters).size !== 5 || normalised[8] !== normalised[3] || /[^!-~]|[A-Za-z0-9]/.test(delimiters))
    throw new Hl7Refused('MSH-1 and MSH-2 must declare five distinct delimiters (|^~\\&)');
  return splitHl7Message(normalised);
}

/** The message's observations in order, each with the NTE segments after it and the OBR it belongs to. */
function structure(segments: Hl7Segment[]) {
  const observations: Observation[] = [];
  const orders: Hl7Segment[] = [];
  let rejectReason: { reason: RejectionReason; text: string | null } | undefined;
  let current: Observation | undefined;
  for (const segment of segments) {
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
        // MSH, PID, PV1, ORC, … identify and route; the barcode (OBR-2/ORC-2) is what matches the sample
        // (PID-5 and PID-7 are read for the unmatched results' queue only: patientOf).
        current = undefined;
    }
  }
  return { observations, orders, rejectReason };
}

/** A component, decoded (escape sequences → text). */
