/** HL7 v2 escape sequences (shared/hl7/text.ts): what splitting leaves as written, decoded in the message's character set; and the writer's inverse. */
import { describe, expect, it } from 'vitest';
import type { Hl7Delimiters } from '../../shared/hl7/message';
import { decodeText, encodeText } from '../../shared/hl7/text';

const context: Hl7Delimiters = { field: '|', component: '^', repetition: '~', escape: '\\', subcomponent: '&' };
const utf8 = (raw: string) => decodeText(raw, context, 'utf-8');

describe('decodeText', () => {
  it.each([
    ['\\F\\', '|'],
    ['\\S\\', '^'],
    ['\\T\\', '&'],
    ['\\R\\', '~'],
    ['\\E\\', '\\'],
    ['\\.br\\', '\n'],
    ['\\X4B\\', 'K'],
    ['\\XC3A4\\', 'ä'],
    ['\\Xc3a4\\', 'ä'],
    ['\\XE282AC\\', '€'],
    ['\\XF09FA9B8\\', '🩸'],
  ])('decodes %s in a UTF-8 message as %j', (escaped, text) => {
    expect(utf8(`a${escaped}b`)).toBe(`a${text}b`);
  });

  it('drops formatting escapes that carry no meaning for a value (\\H\\ highlighting)', () => {
    expect(utf8('\\H\\urgent\\N\\')).toBe('urgent');
  });

  it('drops an escape named like a property of every object (\\toString\\) as it drops any unknown escape', () => {
    expect(utf8('a\\toString\\b')).toBe('ab');
  });

  it("decodes with the message's own escape character from MSH-2", () => {
    expect(decodeText('a#F#b', { ...context, escape: '#' }, 'utf-8')).toBe('a|b');
  });

  it.each([
    ['an encoded surrogate (\\XEDA080\\)', '\\XEDA080\\'],
    ['a byte that is never UTF-8 (\\XFF\\)', '\\XFF\\'],
    ['an overlong form (\\XC0AF\\)', '\\XC0AF\\'],
    ['a character cut short (\\XC3\\)', '\\XC3\\'],
  ])('refuses %s in a UTF-8 message instead of writing U+FFFD', (_case, escaped) => {
    expect(() => utf8(`a${escaped}b`)).toThrow('an \\X..\\ escape names bytes that are no UTF-8 text (the character set of MSH-18)');
  });

  it.each([
    ['an odd number of hex digits (\\XC3A\\)', '\\XC3A\\'],
    ['no hex digits (\\X\\)', '\\X\\'],
    ['a digit that is no hex (\\XG1\\)', '\\XG1\\'],
  ])('refuses an \\X escape with %s', (_case, escaped) => {
    expect(() => utf8(`a${escaped}b`)).toThrow('an \\X..\\ escape must name whole bytes in hexadecimal (an even number of digits)');
  });

  it('decodes \\XE4\\ in a Latin-1 message as ä', () => {
    expect(decodeText('H\\XE4\\molyse', context, 'latin1')).toBe('Hämolyse');
  });

  it('decodes \\XC3A4\\ in a Latin-1 message as the two Latin-1 characters it names', () => {
    expect(decodeText('\\XC3A4\\', context, 'latin1')).toBe('Ã¤');
  });

  it('refuses an escape naming a byte 0x80-0x9F (a C1 control code) in a Latin-1 message', () => {
    expect(() => decodeText('\\X9F\\', context, 'latin1')).toThrow('an \\X..\\ escape names bytes that are no Latin-1 text (the character set of MSH-18)');
  });

  it('decodes \\X41\\ in an ASCII message as A', () => {
    expect(decodeText('\\X41\\', context, 'ascii')).toBe('A');
  });

  it('refuses an escape naming a byte above 0x7F in an ASCII message', () => {
    expect(() => decodeText('\\XE4\\', context, 'ascii')).toThrow('an \\X..\\ escape names bytes that are no ASCII text (the character set of MSH-18)');
  });

  it.each(['\\C2842\\', '\\M2442\\'])('refuses the character set switch %s', (escaped) => {
    expect(() => utf8(`a${escaped}b`)).toThrow('character set escapes (\\C..\\, \\M..\\) are not supported');
  });
});

describe('encodeText', () => {
  it('round-trips every delimiter, the escape character and line breaks', () => {
    const text = 'a | b ^ c & d ~ e \\ f\nnext line';
    expect(encodeText(text)).not.toMatch(/[|^&~\n]/);
    expect(utf8(encodeText(text))).toBe(text);
  });
});
