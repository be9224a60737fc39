/** The ORU^R01 translation's rules that no stored result shows (shared/hl7/oru-r01.ts): refusals and field mappings. */
import { describe, expect, it } from 'vitest';
import { oruR01 } from '../../infra/cli/hl7-message';
import { translateOruR01 } from '../../shared/hl7/oru-r01';

const lookup = ({ code, system }: { code: string; system: string }) =>
  system === 'LN' && code === '718-7'
    ? { id: 2, kind: 'clinical' as const }
    : system === '99LAB' && code === '11'
      ? { id: 11, kind: 'genetic' as const, gene: 'APOE' }
      : undefined;
const coding = (id: number) => (id === 2 ? { code: '718-7', text: 'Hemoglobin', system: 'LN' } : { code: String(id), text: 'APOE', system: '99LAB' });
const base = { control_id: 'C1', barcode: 'LAB-000123', reported_at: '2026-11-24T08:30:00.000Z' };
const clinical = {
  biomarker_id: 2,
  value: 14.2,
  value_operator: 'eq' as const,
  unit_id: null,
  unit: 'g/dL',
  reference_range_lab: null,
  tested_at: '2026-11-20',
};
const message = (extra: Record<string, unknown> = {}) => oruR01({ ...base, clinical_results: [clinical], ...extra }, coding);
const obx = (text: string, replace: (obx: string) => string) => text.replace(/OBX\|[^\r]*/, replace);

describe('translateOruR01', () => {
  it('names the report after the sending facility and MSH-10, so the same message twice is one report', () => {
    const first = translateOruR01(message(), lookup).detail.event_id;
    expect(translateOruR01(message(), lookup).detail.event_id).toBe(first);
    expect(translateOruR01(message({ control_id: 'C2' }), lookup).detail.event_id).not.toBe(first);
  });

  it('takes reported_at from MSH-7 with its offset', () => {
    expect(translateOruR01(message(), lookup).detail.reported_at).toBe('2026-11-24T08:30:00.000Z');
  });

  it.each([
    ['F', 'final'],
    ['C', 'corrected'],
    ['P', 'preliminary'],
    ['R', 'preliminary'],
    ['S', 'preliminary'],
  ])('maps OBX-11 %s to result_status %s', (code, status) => {
    const text = obx(message(), (segment) => segment.replace('|F|||', `|${code}|||`));
    expect(translateOruR01(text, lookup).detail.clinical_results).toEqual([expect.objectContaining({ result_status: status })]);
  });

  it('skips an OBX whose result is pending (OBX-11 I)', () => {
    const text = obx(message(), (segment) => segment.replace('|F|||', '|I|||'));
    expect(translateOruR01(text, lookup).detail.clinical_results).toEqual([]);
  });

  it.each([
    ['N', 'normal'],
    ['L', 'low'],
    ['H', 'high'],
    ['LL', 'critical_low'],
    ['HH', 'critical_high'],
    ['A', 'abnormal'],
    ['', null],
  ])('maps OBX-8 %j to interpretation %s', (flag, interpretation) => {
    const text = message({ clinical_results: [{ ...clinical, interpretation: null }] }).replace('g/dL^^^^^||', `g/dL^^^^^||${flag}`);
    expect(translateOruR01(text, lookup).detail.clinical_results).toEqual([expect.objectContaining({ interpretation })]);
  });

  it('carries a genotype with its NTE lines as clinical significance and risk description', () => {
    const text = oruR01(
      {
        ...base,
        genetic_results: [
          {
            biomarker_id: 11,
            gene: 'APOE',
            genotype: 'e3/e4',
            clinical_significance: 'risk factor',
            risk_description: 'Moderate risk.',
            tested_at: '2026-11-20',
          },
        ],
      },
      coding,
    );
    expect(translateOruR01(text, lookup).detail.genetic_results).toEqual([
      expect.objectContaining({
        biomarker_id: 11,
        gene: 'APOE',
        genotype: 'e3/e4',
        clinical_significance: 'risk factor',
        risk_description: 'Moderate risk.',
        variants: [],
      }),
    ]);
  });

  it.each([
    [
      'an unsupported OBX-11 status (W: wrong, withdrawn)',
      (t: string) => obx(t, (s) => s.replace('|F|||', '|W|||')),
      'OBX 1: OBX-11 result status W is not supported',
    ],
    ['a missing MSH-10', (t: string) => t.replace('|C1|', '||'), 'MSH-10 (message control id) is required'],
    ['a malformed MSH-7', (t: string) => t.replace('20261124083000.000+0000', '24.11.2026'), 'MSH-7 is not an HL7 date/time'],
    ['two samples in one message', (t: string) => t.replace('ORC|RE|LAB-000123', 'ORC|RE|LAB-000999'), 'must name one sample, found 2'],
    ['an OBX before any OBR', (t: string) => t.replace(/OBR\|[^\r]*\r/, ''), 'comes before any OBR'],
    ['an SN range (1^-^5)', (t: string) => obx(t, (s) => s.replace('|NM|', '|SN|').replace('||14.2|', '||^1^-^5|')), 'SN ranges and ratios are not supported'],
    ['a reference range it cannot read', (t: string) => obx(t, (s) => s.replace('g/dL^^^^^||', 'g/dL^^^^^|normal|')), 'OBX-7 reference range not understood'],
    ['a value type other than NM or SN', (t: string) => obx(t, (s) => s.replace('|NM|', '|TX|')), 'value type TX is not supported'],
  ])('refuses %s', (_case, change, reason) => {
    expect(() => translateOruR01(change(message()), lookup)).toThrow(reason);
  });
});

describe('translateOruR01 dates, delimiters and order statuses', () => {
  const withMsh7 = (time: string) => message().replace('20261124083000.000+0000', time);

  it.each([
    ['20261124093000+0100', '2026-11-24T08:30:00.000Z'],
    ['20261124093000.5+0100', '2026-11-24T08:30:00.500Z'],
    ['202611240930-0500', '2026-11-24T14:30:00.000Z'],
  ])('reads MSH-7 %s as %s', (time, iso) => {
    expect(translateOruR01(withMsh7(time), lookup).detail.reported_at).toBe(iso);
  });

  it.each([
    ['without its UTC offset', '20261124093000', 'MSH-7 must carry its UTC offset'],
    ['on a day that does not exist', '20261340093000+0100', 'MSH-7 is not an HL7 date/time'],
    ['at an hour that does not exist', '20261124253000+0100', 'MSH-7 is not an HL7 date/time'],
  ])('refuses an MSH-7 %s', (_case, time, reason) => {
    expect(() => translateOruR01(withMsh7(time), lookup)).toThrow(reason);
  });

  it('names a message sent again at another time (a restarted control id) as another report', () => {
    expect(translateOruR01(withMsh7('20261125093000+0100'), lookup).detail.event_id).not.toBe(translateOruR01(message(), lookup).detail.event_id);
  });

  it('refuses an MSH-2 without its four encoding characters', () => {
    expect(() => translateOruR01(message().replace('MSH|^~\\&|', 'MSH|^~|'), lookup)).toThrow('MSH-1 and MSH-2 must declare five distinct delimiters');
  });

  it('refuses an OBX-14 that is no date', () => {
    expect(() =>
      translateOruR01(
        obx(message(), (s) => s.replace('|20261120', '|20261340')),
        lookup,
      ),
    ).toThrow('OBX 1: the observation date/time is not an HL7 date/time');
  });

  it.each([
    ['A', 'preliminary'],
    ['R', 'preliminary'],
    ['F', 'final'],
  ])('reads OBR-25 %s (table 0123) as %s for an OBX without OBX-11', (code, status) => {
    const text = obx(message(), (s) => s.replace('|F|||', '||||')).replace(/(OBR(\|[^|\r]*){24})\|[^|\r]*/, `$1|${code}`);
    expect(translateOruR01(text, lookup).detail.clinical_results).toEqual([expect.objectContaining({ result_status: status })]);
  });

  it('reads SPM-21 RB (broken container) and RR (improper storage) as other', () => {
    const rejected = (code: string) =>
      oruR01({ ...base, rejection: { reason_code: 'other', biomarker_ids: [2] } }, coding).replace(/SPM\|([^\r]*)\|OT/, `SPM|$1|${code}`);
    expect(['RB', 'RR', 'RH'].map((code) => (translateOruR01(rejected(code), lookup).detail.rejection as { reason_code: string }).reason_code)).toEqual([
      'other',
      'other',
      'haemolysed',
    ]);
  });
});
