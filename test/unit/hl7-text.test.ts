/** HL7 v2 escape sequences (shared/hl7/text.ts): what splitting leaves as written, decoded; and the writer's inverse. */
import { describe, expect, it } from 'vitest';
import type { Hl7Delimiters } from '../../shared/hl7/message';
import { decodeText, encodeText } from '../../shared/hl7/text';

const context: Hl7Delimiters = { field: '|', component: '^', repetition: '~', escape: '\\', subcomponent: '&' };

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
  ])('decodes %s as %j', (escaped, text) => {
    expect(decodeText(`a${escaped}b`, context)).toBe(`a${text}b`);
  });

  it('drops formatting escapes that carry no meaning for a value (\\H\\ highlighting)', () => {
    expect(decodeText('\\H\\urgent\\N\\', context)).toBe('urgent');
  });

  it("decodes with the message's own escape character from MSH-2", () => {
    expect(decodeText('a#F#b', { ...context, escape: '#' })).toBe('a|b');
  });
});

describe('encodeText', () => {
  it('round-trips every delimiter, the escape character and line breaks', () => {
    const text = 'a | b ^ c & d ~ e \\ f\nnext line';
    expect(encodeText(text)).not.toMatch(/[|^&~\n]/);
    expect(decodeText(encodeText(text), context)).toBe(text);
  });
});
