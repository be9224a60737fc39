/**
 * The lab's side of HL7 v2: a LabResultsReported detail written as the ORU^R01 message a laboratory
 * information system would send for it (docs/hl7.md), for the lab sandbox (`npm run lab -- report …
 * --format hl7`) and the tests. The inverse of shared/hl7/oru-r01.ts, field for field: what one writes,
 * the other reads, so the HL7 path and the JSON path can be compared on the same results.
 */
import { LOCAL_CODING_SYSTEM } from '../../shared/hl7/oru-r01';
import { encodeText } from '../../shared/hl7/text';
import type * as v from 'valibot';
import type { Interpretation, RejectionReason, ResultStatus, ValueOperator } from '../../shared/domain/results';
import type { ClinicalResult, GeneticResult } from '../../shared/events/lab-results-reported';

interface Range {
  normal_min: number | null;
  normal_max: number | null;
}
/** A clinical result as the JSON report carries it; HL7 has no optimal range (OBX-7 is one range). */
export type Hl7ClinicalResult = Omit<v.InferInput<typeof ClinicalResult>, 'reference_range_lab'> & { reference_range_lab: Range | null };
/** A genotype as the JSON report carries it; its variants have no HL7 form here (docs/hl7.md). */
export type Hl7GeneticResult = Omit<v.InferInput<typeof GeneticResult>, 'variants' | 'comment'>;
export interface Hl7Report {
  /** MSH-10: at most 20 characters. */
  control_id: string;
  barcode: string;
  reported_at: string;
  drawn_at?: string | null;
  clinical_results?: Hl7ClinicalResult[];
  genetic_results?: Hl7GeneticResult[];
  rejection?: { reason_code: RejectionReason; comment?: string | null; biomarker_ids?: number[] };
  documents?: { file_name: string; bytes: Buffer }[];
  /** PID-5 and PID-7: whom the lab's system says the sample is from (read only when no order holds the barcode). */
  patient?: { family_name: string | null; given_name: string | null; date_of_birth: string | null };
}

/** MSH-3 and MSH-4 of the messages written here: with MSH-10 and MSH-7, what names the report (shared/hl7/oru-r01.ts hl7EventId). */
export const SANDBOX_LAB = { application: 'LAB-SANDBOX', facility: 'LAB' } as const;

/** How OBX-3 names a biomarker: its LOINC code where the catalog has one, else our id. */
export type ObservationCoding = (biomarkerId: number) => { code: string; text: string; system: string };

const STATUS: Record<ResultStatus, string> = { final: 'F', corrected: 'C', preliminary: 'P' };
const FLAG: Record<Interpretation, string> = { normal: 'N', low: 'L', high: 'H', critical_low: 'LL', critical_high: 'HH', abnormal: 'A' };
const OPERATOR: Record<ValueOperator, string> = { eq: '', lt: '<', le: '<=', gt: '>', ge: '>=' };
const REJECT_CODE: Record<RejectionReason, string> = {
  haemolysed: 'RH',
  clotted: 'RC',
  insufficient_volume: 'QS',
  wrong_container: 'RB',
  unlabelled: 'RM',
  too_old: 'EX',
  contaminated: 'RN',
  other: 'OT',
};

/** An ISO instant as an HL7 DTM in UTC, to the millisecond (HL7 allows four fractional digits). */
export function hl7Timestamp(iso: string): string {
  const d = new Date(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${d.getUTCFullYear()}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}` +
    `.${String(d.getUTCMilliseconds()).padStart(3, '0')}+0000`
  );
}
const hl7Date = (date: string) => date.replaceAll('-', '');

function rangeText(range: Range | null): string {
  if (!range || (range.normal_min === null && range.normal_max === null)) return '';
  if (range.normal_min === null) return `<${range.normal_max}`;
  if (range.normal_max === null) return `>${range.normal_min}`;
  return `${range.normal_min}-${range.normal_max}`;
}

/** PID-4 to PID-7: the name (family^given) and birth date, when the report names the person. */
function patientFields(patient: Hl7Report['patient']): string[] {
  if (!patient) return [];
  const name = `${encodeText(patient.family_name ?? '')}^${encodeText(patient.given_name ?? '')}`;
  return ['', name === '^' ? '' : name, '', patient.date_of_birth ? hl7Date(patient.date_of_birth) : ''];
}

/** Segments joined by \r, as HL7 separates them; fields encoded. */
export function oruR01(report: Hl7Report, coding: ObservationCoding): string {
  const segment = (...fields: string[]) => fields.join('|');
  const statuses = [...(report.clinical_results ?? []), ...(report.genetic_results ?? [])].map((r) => r.result_status ?? 'final');
  const orderStatus = report.rejection && statuses.length === 0 ? 'X' : statuses.includes('preliminary') ? 'P' : statuses.includes('corrected') ? 'C' : 'F';
  const barcode = encodeText(report.barcode);
  const lines = [
    segment(
      'MSH',
      '^~\\&',
      SANDBOX_LAB.application,
      SANDBOX_LAB.facility,
      'LAB-API',
      'CLINIC',
      hl7Timestamp(report.reported_at),
      '',
      'ORU^R01^ORU_R01',
      report.control_id,
      'P',
      '2.5.1',
      ...Array(5).fill(''),
      // MSH-18: a string uploaded to S3 is sent as UTF-8 (the lab CLI's and the tests' uploads).
      'UNICODE UTF-8',
    ),
    segment('PID', '1', '', `${barcode}^^^LAB^SID`, ...patientFields(report.patient)),
    segment('ORC', 'RE', barcode),
    segment(
      'OBR',
      '1',
      barcode,
      '',
      `LABRESULTS^Laboratory results^${LOCAL_CODING_SYSTEM}`,
      '',
      '',
      report.drawn_at ? hl7Timestamp(report.drawn_at) : '',
      ...Array(17).fill(''),
      orderStatus,
    ),
  ];
  let n = 0;
  const observation = (...fields: string[]) => segment('OBX', String(++n), ...fields);
  const code = (id: number) => {
    const c = coding(id);
    return `${encodeText(c.code)}^${encodeText(c.text)}^${c.system}`;
  };
  for (const r of report.clinical_results ?? []) {
    const value = r.value_operator === 'eq' ? ['NM', String(r.value)] : ['SN', `${OPERATOR[r.value_operator]}^${r.value}`];
    const unit =
      r.unit === null && r.unit_id === null ? '' : `${encodeText(r.unit ?? '')}^^^${r.unit_id ?? ''}^^${r.unit_id === null ? '' : LOCAL_CODING_SYSTEM}`;
    const flag = r.interpretation ? FLAG[r.interpretation] : '';
    lines.push(
      observation(
        value[0]!,
        code(r.biomarker_id),
        '',
        value[1]!,
        unit,
        rangeText(r.reference_range_lab),
        flag,
        '',
        '',
        STATUS[r.result_status ?? 'final'],
        '',
        '',
        hl7Date(r.tested_at),
      ),
    );
    if (r.comment) lines.push(segment('NTE', '1', 'L', encodeText(r.comment)));
  }
  for (const r of report.genetic_results ?? []) {
    lines.push(
      observation('ST', code(r.biomarker_id), '', encodeText(r.genotype), '', '', '', '', '', STATUS[r.result_status ?? 'final'], '', '', hl7Date(r.tested_at)),
    );
    lines.push(segment('NTE', '1', 'L', encodeText(r.clinical_significance)));
    if (r.risk_description) lines.push(segment('NTE', '2', 'L', encodeText(r.risk_description)));
  }
  for (const id of report.rejection?.biomarker_ids ?? []) lines.push(observation('NM', code(id), '', '', '', '', '', '', '', 'X'));
  for (const document of report.documents ?? []) {
    lines.push(
      observation(
        'ED',
        `PDF^${encodeText(document.file_name)}^${LOCAL_CODING_SYSTEM}`,
        '',
        `^application^pdf^Base64^${document.bytes.toString('base64')}`,
        '',
        '',
        '',
        '',
        '',
        'F',
      ),
    );
  }
  if (report.rejection) {
    const reason = `${REJECT_CODE[report.rejection.reason_code]}${report.rejection.comment ? `^${encodeText(report.rejection.comment)}` : ''}`;
    lines.push(segment('SPM', '1', barcode, ...Array(18).fill(''), reason));
  }
  return `${lines.join('\r')}\r`;
}

/**
 * What S3 puts on EventBridge when the lab uploads a message (the fields AWS documents for `Object
 * Created`), as EventBridge hands it to results-ingest: the local stand-in for the notification.
 */
export function objectCreatedEvent(bucket: string, key: string, size: number) {
  const time = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    version: '0',
    id: crypto.randomUUID(),
    'detail-type': 'Object Created',
    source: 'aws.s3',
    account: '123456789012',
    time,
    region: 'eu-central-1',
    resources: [`arn:aws:s3:::${bucket}`],
    detail: {
      version: '0',
      bucket: { name: bucket },
      object: { key, size, etag: '0', sequencer: '0' },
      'request-id': crypto.randomUUID(),
      requester: '123456789012',
      reason: 'PutObject',
    },
  };
}
