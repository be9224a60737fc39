/**
 * The order as HL7 v2.5.1 OML^O21 (shared/hl7/oml-o21.ts), written by our few lines and read back by
 * @medplum/core's Hl7Message (an independent parser, kept as a devDependency to judge ours).
 */
import { Hl7Message } from '@medplum/core';
import { describe, expect, it } from 'vitest';
import type { OrderedTest } from '../../shared/domain/requisition';
import { decodeText } from '../../shared/hl7/text';
import { type OrderMessageInput, omlO21 } from '../../shared/hl7/oml-o21';

const tests: OrderedTest[] = [
  { biomarker_id: 2, loinc: '718-7', name: 'Haemoglobin', specimen: { type: 'whole_blood', container: 'EDTA (lavender)', min_volume_ml: 1 } },
  {
    biomarker_id: 11,
    loinc: '34714-6',
    name: 'Prothrombin time (INR)',
    specimen: { type: 'plasma', container: 'sodium citrate (light blue)', min_volume_ml: 2.7 },
  },
];

const input: OrderMessageInput = {
  controlId: 'RQ7K3M9XQ2HT4W',
  sentAt: new Date('2026-11-28T10:15:30.250Z'),
  parties: { sendingFacility: 'Demo Clinic', receivingApplication: 'LIS', receivingFacility: 'Central Lab' },
  patient: { id: '2c59b543-54a0-47b9-891a-61ed02fc2ea7', familyName: 'Muster', givenName: 'Erika', birthDate: '1984-08-12', sex: 2 },
  barcode: 'LAB-0001-ABC',
  requisitionNumber: 'RQ-7K3M-9XQ2-HT4W',
  orderedAt: '2026-11-28T10:15:00.000Z',
  collectedAt: '2026-11-28T10:14:00.000Z',
  tests,
};

const parsed = (message: string) => Hl7Message.parse(message);
const field = (message: Hl7Message, segment: string, index: number, repetition = 0) => message.getAllSegments(segment)[repetition]?.getField(index);

describe('omlO21', () => {
  it('heads the message with MSH: our application, the lab as receiver, OML^O21, the control id, 2.5.1 and UTF-8', () => {
    const msh = parsed(omlO21(input)).getSegment('MSH')!;
    expect([3, 4, 5, 6, 7, 9, 10, 11, 12, 15, 18].map((i) => msh.getField(i).toString())).toEqual([
      'LABAPI',
      'Demo Clinic',
      'LIS',
      'Central Lab',
      '20261128101530+0000',
      'OML^O21^OML_O21',
      'RQ7K3M9XQ2HT4W',
      'P',
      '2.5.1',
      'AL',
      'UNICODE UTF-8',
    ]);
  });

  it('names the person in PID: our id, family and given name, birth date and sex', () => {
    const message = parsed(omlO21(input));
    expect([3, 5, 7, 8].map((i) => field(message, 'PID', i)?.toString())).toEqual([
      '2c59b543-54a0-47b9-891a-61ed02fc2ea7^^^LABAPI^PI',
      'Muster^Erika',
      '19840812',
      'F',
    ]);
  });

  it('orders each test with ORC NW, the barcode as placer order number and the requisition as placer group', () => {
    const message = parsed(omlO21(input));
    const orders = message.getAllSegments('ORC').map((orc) => [orc.getField(1).toString(), orc.getField(2).toString(), orc.getField(4).toString()]);
    expect(orders).toEqual([
      ['NW', 'LAB-0001-ABC^LABAPI', 'RQ-7K3M-9XQ2-HT4W^LABAPI'],
      ['NW', 'LAB-0001-ABC^LABAPI', 'RQ-7K3M-9XQ2-HT4W^LABAPI'],
    ]);
  });

  it('gives each test an OBR with its LOINC code as universal service id and the collection time', () => {
    const message = parsed(omlO21(input));
    const requests = message.getAllSegments('OBR').map((obr) => [obr.getField(2).toString(), obr.getField(4).toString(), obr.getField(7).toString()]);
    expect(requests).toEqual([
      ['LAB-0001-ABC^LABAPI', '718-7^Haemoglobin^LN', '20261128101400+0000'],
      ['LAB-0001-ABC^LABAPI', '34714-6^Prothrombin time (INR)^LN', '20261128101400+0000'],
    ]);
  });

  it('follows each OBR with the SPM of its tube: barcode, table 0487 type, collection time and container', () => {
    const message = parsed(omlO21(input));
    const specimens = message.getAllSegments('SPM').map((spm) => [2, 4, 17, 27].map((i) => spm.getField(i).toString()));
    expect(specimens).toEqual([
      ['LAB-0001-ABC', 'WB^Whole blood^HL70487', '20261128101400+0000', '^EDTA (lavender)'],
      ['LAB-0001-ABC', 'PLAS^Plasma^HL70487', '20261128101400+0000', '^sodium citrate (light blue)'],
    ]);
    expect(message.segments.map((segment) => segment.name)).toEqual(['MSH', 'PID', 'ORC', 'OBR', 'SPM', 'ORC', 'OBR', 'SPM']);
  });

  it('escapes the delimiters in every free text, so a name splits nowhere and reads back as written', () => {
    const awkward = 'A|B^C~D\\E&F';
    const message = omlO21({
      ...input,
      patient: { ...input.patient, familyName: awkward, givenName: 'Zoë\nLine' },
      parties: { ...input.parties, sendingFacility: awkward },
    });
    const judged = parsed(message);
    const name = field(judged, 'PID', 5)!;
    const delimiters = { field: '|', component: '^', repetition: '~', escape: '\\', subcomponent: '&' };
    expect(decodeText(name.getComponent(1), delimiters, 'utf-8')).toBe(awkward);
    expect(decodeText(name.getComponent(2), delimiters, 'utf-8')).toBe('Zoë\nLine');
    expect(decodeText(field(judged, 'MSH', 4)!.toString(), delimiters, 'utf-8')).toBe(awkward);
    expect(judged.segments).toHaveLength(8);
  });

  it('leaves the name empty and the sex U for an erased person', () => {
    const message = parsed(omlO21({ ...input, patient: { ...input.patient, familyName: null, givenName: null, birthDate: null, sex: null } }));
    expect([5, 7, 8].map((i) => field(message, 'PID', i)?.toString())).toEqual(['', '', 'U']);
  });
});
