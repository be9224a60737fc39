/**
 * Splitting an HL7 v2 message (shared/hl7/message.ts). Its numbering is the one the ORU^R01 reader was
 * written against with @medplum/core (kept as a devDependency to judge it): every component of every field
 * of the messages below reads the same from both.
 */
import { Hl7Message } from '@medplum/core';
import { describe, expect, it } from 'vitest';
import { oruR01 } from '../../infra/cli/hl7-message';
import { splitHl7Message } from '../../shared/hl7/message';

const pdf = Buffer.from('%PDF-1.4 a report');
const written = oruR01(
  {
    control_id: 'C1',
    barcode: 'LAB-000123',
    reported_at: '2026-11-24T08:30:00.000Z',
    drawn_at: '2026-11-20T07:00:00.000Z',
    clinical_results: [
      {
        biomarker_id: 2,
        value: 14.2,
        value_operator: 'le',
        unit_id: null,
        unit: 'g/dL',
        reference_range_lab: { normal_min: 13.5, normal_max: 17.5 },
        tested_at: '2026-11-20',
        interpretation: 'high',
        comment: 'a | b ^ c\nnext line',
      },
    ],
    genetic_results: [
      { biomarker_id: 11, gene: 'APOE', genotype: 'e3/e4', clinical_significance: 'risk factor', risk_description: 'Moderate risk.', tested_at: '2026-11-20' },
    ],
    rejection: { reason_code: 'haemolysed', comment: 'redraw' },
    documents: [{ file_name: 'report.pdf', bytes: pdf }],
  },
  (id) => (id === 2 ? { code: '718-7', text: 'Hemoglobin', system: 'LN' } : { code: String(id), text: 'APOE', system: '99LAB' }),
);
/** Other delimiters than the usual, repetitions, sub-components, empty and missing fields, LF between segments. */
const unusual = [
  'MSH#*$!%#LAB#FAC#API#US#20261124093000+0100##ORU*R01*ORU_R01#C2#P#2.5.1',
  'PID###P1$P2*X##Doe*Jane%Ann',
  'OBR#1#LAB-1*LAB##718-7*Hb*LN',
  'OBX#1#NM#718-7*Hemoglobin*LN##14!S!2#g/dL',
  'NTE',
].join('\n');
/** MSH-18 with a second repetition (an alternate set): the first is the message's. */
const declaring = unusual.replace('#2.5.1', '#2.5.1######8859/1$UNICODE UTF-8');

describe('splitHl7Message', () => {
  it.each([
    ['a message our lab writes', written],
    ['a message with other delimiters', unusual],
    ['a message declaring its character set in MSH-18', declaring],
  ])('reads every component of %s as @medplum/core does', (_name, text) => {
    const ours = splitHl7Message(text);
    const theirs = Hl7Message.parse(text).segments;
    expect(ours.map((segment) => segment.name)).toEqual(theirs.map((segment) => segment.name));
    theirs.forEach((segment, index) => {
      const fields = segment.fields.length + 1;
      for (let field = 1; field <= fields; field++) {
        for (let component = 1; component <= 6; component++) {
          expect([segment.name, field, component, ours[index]!.getComponent(field, component)]).toEqual([
            segment.name,
            field,
            component,
            segment.getComponent(field, component),
          ]);
        }
      }
    });
  });

  it('numbers MSH as HL7 does: MSH-1 is the field separator, MSH-9.2 the trigger event', () => {
    const [header] = splitHl7Message(unusual);
    expect([header!.getComponent(1, 1), header!.getComponent(2, 1), header!.getComponent(9, 2)]).toEqual(['#', '*$!%', 'R01']);
  });

  it("takes a field's first repetition and leaves its escape sequences as written", () => {
    const segments = splitHl7Message(unusual);
    expect(segments[1]!.getComponent(3, 1)).toBe('P1');
    expect(segments[3]!.getComponent(5, 1)).toBe('14!S!2');
  });

  it('answers an empty value for a field or component the segment does not have', () => {
    const segments = splitHl7Message(unusual);
    expect([segments[4]!.getComponent(3, 1), segments[2]!.getComponent(4, 4)]).toEqual(['', '']);
  });

  it('declares the delimiters of MSH-1 and MSH-2', () => {
    expect(splitHl7Message(unusual)[0]!.delimiters).toEqual({ field: '#', component: '*', repetition: '$', escape: '!', subcomponent: '%' });
  });

  it('gives every segment the character set of MSH-18, its first repetition', () => {
    expect(new Set(splitHl7Message(declaring).map((segment) => segment.charset))).toEqual(new Set(['latin1']));
  });

  it('gives every segment UTF-8 when MSH-18 is empty', () => {
    expect(new Set(splitHl7Message(unusual).map((segment) => segment.charset))).toEqual(new Set(['utf-8']));
  });
});
