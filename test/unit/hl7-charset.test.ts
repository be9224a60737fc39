/** The character set of an HL7 v2 message (shared/hl7/charset.ts): MSH-18 read, and a message's bytes read in it or refused. */
import { describe, expect, it } from 'vitest';
import { charsetOf, decodeMessage } from '../../shared/hl7/charset';

describe('charsetOf', () => {
  it.each([
    ['', 'utf-8'],
    ['UNICODE UTF-8', 'utf-8'],
    ['8859/1', 'latin1'],
    ['ASCII', 'ascii'],
  ])('reads MSH-18 %j as %s', (msh18, charset) => {
    expect(charsetOf(msh18)).toBe(charset);
  });

  it.each(['8859/2', 'UNICODE', 'UNICODE UTF-16', 'utf-8'])('refuses MSH-18 %j, naming the supported sets but not the value', (msh18) => {
    expect(() => charsetOf(msh18)).toThrow(
      expect.objectContaining({
        name: 'Hl7Refused',
        message: 'MSH-18 names a character set that is not supported (UNICODE UTF-8, 8859/1, ASCII, or empty for UTF-8)',
      }),
    );
  });
});

describe('decodeMessage', () => {
  const hamolyse = (encoding: BufferEncoding) => Buffer.from('NTE|1|L|Hämolyse', encoding);

  it('reads a UTF-8 message as UTF-8', () => {
    expect(decodeMessage(hamolyse('utf8'), 'utf-8')).toBe('NTE|1|L|Hämolyse');
  });

  it('refuses a message declaring UTF-8 whose bytes are not', () => {
    expect(() => decodeMessage(hamolyse('latin1'), 'utf-8')).toThrow("MSH-18 declares UTF-8 (UNICODE UTF-8, or empty), but the message's bytes are not UTF-8");
  });

  it('reads a Latin-1 message as Latin-1', () => {
    expect(decodeMessage(Buffer.from('Größe 37 °C, µg/dL', 'latin1'), 'latin1')).toBe('Größe 37 °C, µg/dL');
  });

  it('refuses a message declaring 8859/1 that holds bytes 0x80-0x9F (UTF-8 ß is C3 9F)', () => {
    expect(() => decodeMessage(Buffer.from('Größe', 'utf8'), 'latin1')).toThrow(
      'MSH-18 declares 8859/1 (Latin-1), but the message holds bytes 0x80-0x9F, which are no Latin-1 characters',
    );
  });

  it('refuses a message declaring 8859/1 whose non-ASCII bytes are UTF-8 with no byte 0x80-0x9F (ä is C3 A4)', () => {
    expect(() => decodeMessage(hamolyse('utf8'), 'latin1')).toThrow("MSH-18 declares 8859/1 (Latin-1), but the message's non-ASCII bytes are UTF-8");
  });

  it('reads an ASCII message as ASCII', () => {
    expect(decodeMessage(Buffer.from('NTE|1|L|ok'), 'ascii')).toBe('NTE|1|L|ok');
  });

  it('refuses a message declaring ASCII that holds a byte above 0x7F', () => {
    expect(() => decodeMessage(hamolyse('latin1'), 'ascii')).toThrow('MSH-18 declares ASCII, but the message holds bytes above 0x7F');
  });
});
