/** The ORU^R01 translation's rules that no stored result shows (shared/hl7/oru-r01.ts): refusals and field mappings. */
import { describe, expect, it } from 'vitest';
import { oruR01 } from '../../infra/cli/hl7-message';
import { STORABLE_NUMBER } from '../../shared/domain/results';
import { decodeOruR01, translateOruR01 } from '../../shared/hl7/oru-r01';

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

describe('decodeOruR01 and the character set of MSH-18', () => {
  const declaring = (charset: string, comment = 'Hämolyse') =>
    message({ clinical_results: [{ ...clinical, comment }] }).replace('|UNICODE UTF-8\r', `|${charset}\r`);
  const comment = (text: string) => (translateOruR01(text, lookup).detail.clinical_results as { comment: string }[])[0]!.comment;

  it('reads a message declaring UNICODE UTF-8 as UTF-8', () => {
    expect(comment(decodeOruR01(Buffer.from(message({ clinical_results: [{ ...clinical, comment: 'Hämolyse €' }] }))))).toBe('Hämolyse €');
  });

  it('reads a message with an empty MSH-18 as UTF-8', () => {
    expect(comment(decodeOruR01(Buffer.from(declaring('', 'Größe'))))).toBe('Größe');
  });

  it('reads a message declaring 8859/1 as Latin-1', () => {
    expect(comment(decodeOruR01(Buffer.from(declaring('8859/1', 'Größe 37 °C'), 'latin1')))).toBe('Größe 37 °C');
  });

  it('refuses a message declaring 8859/1 that is UTF-8 (bytes 0x80-0x9F)', () => {
    expect(() => decodeOruR01(Buffer.from(declaring('8859/1', 'Größe'), 'utf8'))).toThrow(
      'MSH-18 declares 8859/1 (Latin-1), but the message holds bytes 0x80-0x9F',
    );
  });

  it('refuses a message declaring 8859/1 that is UTF-8 (no byte 0x80-0x9F)', () => {
    expect(() => decodeOruR01(Buffer.from(declaring('8859/1', 'Hämolyse'), 'utf8'))).toThrow(
      "MSH-18 declares 8859/1 (Latin-1), but the message's non-ASCII bytes are UTF-8",
    );
  });

  it('refuses a message declaring UTF-8 that is Latin-1', () => {
    expect(() => decodeOruR01(Buffer.from(message({ clinical_results: [{ ...clinical, comment: 'Hämolyse' }] }), 'latin1'))).toThrow(
      "MSH-18 declares UTF-8 (UNICODE UTF-8, or empty), but the message's bytes are not UTF-8",
    );
  });

  it('refuses a message declaring ASCII that holds a byte above 0x7F', () => {
    expect(() => decodeOruR01(Buffer.from(declaring('ASCII'), 'latin1'))).toThrow('MSH-18 declares ASCII, but the message holds bytes above 0x7F');
  });

  it('refuses a character set it does not read (8859/2), without naming it', () => {
    expect(() => decodeOruR01(Buffer.from(declaring('8859/2', 'ok')))).toThrow(
      /^MSH-18 names a character set that is not supported \(UNICODE UTF-8, 8859\/1, ASCII, or empty for UTF-8\)$/,
    );
  });

  it('reads MSH-18 after a UTF-8 byte order mark and blank lines', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`\r\n${declaring('UNICODE UTF-8', 'Größe')}`)]);
    expect(comment(decodeOruR01(bytes))).toBe('Größe');
  });

  it('reads MSH-18 when the MSH segment itself holds non-ASCII text (MSH-4)', () => {
    const text = declaring('8859/1', 'Größe').replace('|LAB|', '|Zentrallabor Köln|');
    expect(comment(decodeOruR01(Buffer.from(text, 'latin1')))).toBe('Größe');
  });

  it('refuses MSH-1 and MSH-2 that are not ASCII, as their bytes would differ by character set', () => {
    expect(() => decodeOruR01(Buffer.from(message().replaceAll('|', '¦')))).toThrow('MSH-1 and MSH-2 must declare five distinct delimiters');
  });

  it('refuses an MSH-18 it does not read in a message given as text', () => {
    expect(() => translateOruR01(declaring('UNICODE UTF-16'), lookup)).toThrow('MSH-18 names a character set that is not supported');
  });
});

describe('translateOruR01 \\X escapes', () => {
  const withComment = (escaped: string, charset = 'UNICODE UTF-8') =>
    message({ clinical_results: [{ ...clinical, comment: 'COMMENT' }] })
      .replace('COMMENT', escaped)
      .replace('|UNICODE UTF-8\r', `|${charset}\r`);
  const comment = (text: string) => (translateOruR01(text, lookup).detail.clinical_results as { comment: string }[])[0]!.comment;

  it('decodes \\XC3A4\\ in a UTF-8 message as ä', () => {
    expect(comment(withComment('H\\XC3A4\\molyse'))).toBe('Hämolyse');
  });

  it('decodes \\XE4\\ in a message declaring 8859/1 as ä', () => {
    expect(comment(withComment('H\\XE4\\molyse', '8859/1'))).toBe('Hämolyse');
  });

  it.each(['\\XEDA080\\', '\\XFF\\'])('refuses %s in a UTF-8 message, naming NTE-3', (escaped) => {
    expect(() => translateOruR01(withComment(`a${escaped}b`), lookup)).toThrow(
      new RegExp(`^NTE-3: an \\\\X\\.\\.\\\\ escape names bytes that are no UTF-8 text \\(the character set of MSH-18\\)$`),
    );
  });

  it('refuses an \\X escape with an odd number of hex digits, naming NTE-3', () => {
    expect(() => translateOruR01(withComment('\\XC3A\\'), lookup)).toThrow('NTE-3: an \\X..\\ escape must name whole bytes in hexadecimal');
  });

  it('refuses an \\X escape naming a C1 byte in a message declaring 8859/1', () => {
    expect(() => translateOruR01(withComment('\\X9F\\', '8859/1'), lookup)).toThrow('NTE-3: an \\X..\\ escape names bytes that are no Latin-1 text');
  });

  it('refuses an \\X escape naming a byte above 0x7F in a message declaring ASCII', () => {
    expect(() => translateOruR01(withComment('\\XE4\\', 'ASCII'), lookup)).toThrow('NTE-3: an \\X..\\ escape names bytes that are no ASCII text');
  });

  it('refuses an \\X escape naming no UTF-8 in OBX-5, naming OBX-5', () => {
    expect(() =>
      translateOruR01(
        obx(message(), (s) => s.replace('||14.2|', '||14\\XFF\\|')),
        lookup,
      ),
    ).toThrow('OBX-5: an \\X..\\ escape names bytes');
  });
});

describe('translateOruR01 numbers the table cannot hold', () => {
  const withValue = (text: string) => obx(message(), (s) => s.replace('||14.2|', `||${text}|`));
  const withRange = (range: string) => obx(message(), (s) => s.replace('g/dL^^^^^||', `g/dL^^^^^|${range}|`));

  it('refuses an OBX-5 of 100,000 digits before reading it, naming OBX-5', () => {
    expect(() => translateOruR01(withValue('9'.repeat(100_000)), lookup)).toThrow(/^OBX 1: OBX-5 must be a number of at most 200 characters$/);
  });

  it.each([
    ['of 127 digits', `1${'0'.repeat(126)}`],
    ['below 1E-130 (0.…01, 131 places)', `0.${'0'.repeat(130)}1`],
    ['of 127 digits after a comparator (>)', `>1${'0'.repeat(126)}`],
  ])('refuses an NM OBX-5 %s, naming OBX-5', (_case, number) => {
    expect(() => translateOruR01(withValue(number), lookup)).toThrow(`OBX 1: OBX-5 ${STORABLE_NUMBER}`);
  });

  it('refuses an SN OBX-5 of 127 digits, naming OBX-5', () => {
    const text = obx(message(), (s) => s.replace('|NM|', '|SN|').replace('||14.2|', `||<^1${'0'.repeat(126)}|`));
    expect(() => translateOruR01(text, lookup)).toThrow(`OBX 1: OBX-5 ${STORABLE_NUMBER}`);
  });

  it.each([
    ['1E-130', `0.${'0'.repeat(129)}1`, 1e-130],
    ['1E+12 (a count per litre)', '1000000000000', 1e12],
    ['0', '0', 0],
  ])('stores an OBX-5 of %s', (_case, number, stored) => {
    expect(translateOruR01(withValue(number), lookup).detail.clinical_results).toEqual([expect.objectContaining({ value: stored })]);
  });

  it('refuses an OBX-5 with a line break (\\.br\\) as no number', () => {
    expect(() => translateOruR01(withValue('14\\.br\\2'), lookup)).toThrow('OBX 1: OBX-5 is not a number');
  });

  it.each([
    ['a low bound of 127 digits', `1${'0'.repeat(126)}-2${'0'.repeat(126)}`],
    ['a high bound of 127 digits', `<1${'0'.repeat(126)}`],
    ['a bound below 1E-130', `>0.${'0'.repeat(130)}1`],
  ])('refuses an OBX-7 with %s, naming OBX-7', (_case, range) => {
    expect(() => translateOruR01(withRange(range), lookup)).toThrow(`OBX 1: each bound of OBX-7 ${STORABLE_NUMBER}`);
  });

  it('refuses an OBX-7 of 100,000 characters before reading it', () => {
    expect(() => translateOruR01(withRange(`1-${'9'.repeat(100_000)}`), lookup)).toThrow('OBX 1: OBX-7 must be a reference range of at most 420 characters');
  });
});

describe('translateOruR01 and the patient of PID (read for the queue of results that match no order, issue #51)', () => {
  const withPid = (pid: string) => message().replace(/PID\|[^\r]*/, pid);

  it('reads PID-5 as the family name, then given and middle names, and PID-7 as the birth date, escapes decoded', () => {
    const { patient } = translateOruR01(withPid('PID|1||LAB-000123^^^LAB^SID||M\\E\\ller-L\\T\\dke^Anna^Maria||19620417'), lookup).detail;
    expect(patient).toEqual({ name: 'M\\ller-L&dke, Anna Maria', date_of_birth: '1962-04-17' });
  });

  it('reads a PID-7 that is no real date, and a line break in a name, without refusing the message', () => {
    const { patient } = translateOruR01(withPid('PID|1||X||Muster^Erika\\.br\\Eva||19621341'), lookup).detail;
    expect(patient).toEqual({ name: 'Muster, Erika Eva', date_of_birth: null });
  });

  it('names no patient when PID holds neither name nor birth date, or there is no PID', () => {
    expect(translateOruR01(withPid('PID|1||X'), lookup).detail).not.toHaveProperty('patient');
    expect(translateOruR01(message().replace(/PID\|[^\r]*\r/, ''), lookup).detail).not.toHaveProperty('patient');
  });
});
