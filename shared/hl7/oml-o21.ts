/**
 * A requisition as the HL7 v2.5.1 order a lab's interface engine reads: OML^O21 (issue #51).
 *
 * Why OML^O21 and not ORM^O01: from v2.5 HL7 defines OML^O21 as the laboratory order, and keeps ORM^O01
 * only for backward compatibility (v2.7 withdrew it); OML carries the specimen in its own SPM segment
 * (type from table 0487, container, collection time), where ORM has only OBR-15's free-form source. HL7's
 * lab order guides (LOI) prescribe it, and Mirth, Rhapsody and Cloverleaf route it as readily as ORM.
 *
 * The message: MSH; PID (the person); then per test an ORC (`NW`; ORC-2 the barcode, which our ORU ingest
 * reads back; ORC-4 the requisition number, the placer group that ties the tests of one draw), its OBR
 * (OBR-4 `LOINC^name^LN`, OBR-7 the collection time) and the SPM of the tube it is tested on. Every free
 * text is escaped (`|^~\&` and line breaks): ./text.ts. Pure: the caller gives the time and the ids.
 */
import type { OrderedTest } from '../domain/requisition';
import { SPECIMEN_TYPE_CODES } from '../fhir/codes';
import { encodeText } from './text';

/** Our application's name in MSH-3, and the assigning authority of our identifiers (PID-3, ORC-2, ORC-4). */
export const PLACER_APPLICATION = 'LABAPI';

export interface OrderParties {
  /** MSH-4: our facility as the lab knows it. */
  sendingFacility: string;
  /** MSH-5 and MSH-6: the lab's interface engine and facility. */
  receivingApplication: string;
  receivingFacility: string;
}

export interface OrderMessageInput {
  /** MSH-10: the same on every retry of this order, so the lab's engine drops a duplicate. */
  controlId: string;
  /** MSH-7 */
  sentAt: Date;
  parties: OrderParties;
  patient: { id: string; familyName: string | null; givenName: string | null; birthDate: string | null; sex: 0 | 1 | 2 | null };
  barcode: string;
  requisitionNumber: string;
  /** When the requisition was made: ORC-9. */
  orderedAt: string;
  /** When the specimen was taken: OBR-7 and SPM-17. */
  collectedAt: string;
  tests: readonly OrderedTest[];
}

/** HL7's DTM in UTC: `YYYYMMDDHHMMSS+0000`. */
export const hl7Time = (instant: Date | string) => `${new Date(instant).toISOString().replace(/[-:T]/g, '').slice(0, 14)}+0000`;

/** PID-8 (table 0001) of an ISO/IEC 5218 sex code: 1 male, 2 female, 0 not known. */
const SEX: Record<0 | 1 | 2, string> = { 0: 'U', 1: 'M', 2: 'F' };

/** Fields from 1 up, empty ones kept: `segment('OBR', {1: 'a', 4: 'b'})` is `OBR|a|||b`. */
function segment(name: string, fields: Record<number, string>): string {
  const last = Math.max(0, ...Object.keys(fields).map(Number));
  return [name, ...Array.from({ length: last }, (_, i) => fields[i + 1] ?? '')].join('|');
}

const components = (...values: string[]) => values.join('^').replace(/\^+$/, '');

export function omlO21(input: OrderMessageInput): string {
  const { parties, patient, barcode, requisitionNumber, tests } = input;
  const placerOrder = components(encodeText(barcode), PLACER_APPLICATION);
  const collected = hl7Time(input.collectedAt);
  // MSH-1 is the field separator itself, so MSH-2 is the first value after the name.
  const msh = [
    'MSH',
    '^~\\&',
    PLACER_APPLICATION,
    encodeText(parties.sendingFacility),
    encodeText(parties.receivingApplication),
    encodeText(parties.receivingFacility),
    hl7Time(input.sentAt),
    '',
    'OML^O21^OML_O21',
    encodeText(input.controlId),
    'P',
    '2.5.1',
    '',
    '',
    'AL', // MSH-15: the lab's engine acknowledges every message (the MLLP ACK we wait for)
    'NE', // MSH-16: no application-level ORL^O22 expected
    '',
    'UNICODE UTF-8',
  ].join('|');
  const pid = segment('PID', {
    1: '1',
    3: components(patient.id, '', '', PLACER_APPLICATION, 'PI'),
    5: components(encodeText(patient.familyName ?? ''), encodeText(patient.givenName ?? '')),
    7: patient.birthDate?.replaceAll('-', '') ?? '',
    8: patient.sex === null ? 'U' : SEX[patient.sex],
  });
  const orders = tests.flatMap((test, index) => {
    const type = SPECIMEN_TYPE_CODES[test.specimen.type];
    return [
      segment('ORC', { 1: 'NW', 2: placerOrder, 4: components(encodeText(requisitionNumber), PLACER_APPLICATION), 9: hl7Time(input.orderedAt) }),
      segment('OBR', { 1: String(index + 1), 2: placerOrder, 4: components(test.loinc, encodeText(test.name), 'LN'), 7: collected }),
      segment('SPM', {
        1: String(index + 1),
        2: encodeText(barcode),
        4: components(type.code, type.display, 'HL70487'),
        17: collected,
        27: components('', encodeText(test.specimen.container)),
      }),
    ];
  });
  return [msh, pid, ...orders].join('\r');
}
