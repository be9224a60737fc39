/**
 * The character set of an HL7 v2 message (MSH-18) and its bytes read in it: the message's own bytes
 * (decodeMessage) and those an \X…\ escape names (./text.ts). Bytes that are no text in the declared set are
 * refused (Hl7Refused), never replaced by U+FFFD: what is stored is what the lab meant, or nothing.
 */
import { Hl7Refused } from './report-shape';

/** The character sets we read: UTF-8, ISO 8859-1 (Latin-1) and US-ASCII. */
export type Hl7Charset = 'utf-8' | 'latin1' | 'ascii';

/**
 * MSH-18 (HL7 table 0211, its first repetition: the message's default set) → how its bytes are read. Empty
 * is UTF-8: HL7's default there is ASCII, which UTF-8 reads unchanged, and a lab that declares nothing and
 * sends more than ASCII sends UTF-8 far more often than anything else.
 */
const CHARSETS: ReadonlyMap<string, Hl7Charset> = new Map([
  ['', 'utf-8'],
  ['UNICODE UTF-8', 'utf-8'],
  ['8859/1', 'latin1'],
  ['ASCII', 'ascii'],
]);
export const CHARSET_NAMES: Readonly<Record<Hl7Charset, string>> = { 'utf-8': 'UTF-8', latin1: 'Latin-1', ascii: 'ASCII' };

/** The character set MSH-18 names (as written, its first repetition); any other is refused. */
export function charsetOf(msh18: string): Hl7Charset {
  const charset = CHARSETS.get(msh18.trim());
  if (!charset) throw new Hl7Refused('MSH-18 names a character set that is not supported (UNICODE UTF-8, 8859/1, ASCII, or empty for UTF-8)');
  return charset;
}

const NON_ASCII = /[\x80-\xff]/;
const C1 = /[\x80-\x9f]/;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/**
 * Bytes as text in `charset`, or undefined when they are none: UTF-8 that is not well formed (an encoded
 * surrogate such as ED A0 80, an overlong form, a stray FF); in Latin-1 the bytes 0x80–0x9F, C1 control codes
 * and no printable character of ISO 8859-1 (a UTF-8 message mislabelled 8859/1 holds them in Ä, Ö, Ü, ß, €);
 * in ASCII any byte above 0x7F. A byte order mark is text here (U+FEFF): the message's own is dropped by
 * its parser, and an escape names what it names.
 */
export function decodeBytes(bytes: Uint8Array, charset: Hl7Charset): string | undefined {
  if (charset === 'utf-8') {
    try {
      return utf8.decode(bytes);
    } catch {
      return undefined;
    }
  }
  // Each byte one character: a byte above 0x7F reads as one character from U+0080 to U+00FF.
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return (charset === 'ascii' ? NON_ASCII : C1).test(text) ? undefined : text;
}

/**
 * A whole message's bytes as text in the character set its MSH-18 declares, refused with the rule it breaks.
 * A message declaring 8859/1 whose non-ASCII bytes all read as UTF-8 is refused too: it is a UTF-8 message
 * mislabelled (Latin-1 text reads as UTF-8 only for pairs no lab writes, such as `Ã¤`), and read as Latin-1
 * it would store `HÃ¤molyse` for `Hämolyse`.
 */
export function decodeMessage(bytes: Uint8Array, charset: Hl7Charset): string {
  const text = decodeBytes(bytes, charset);
  if (text === undefined) throw new Hl7Refused(NOT_IN_CHARSET[charset]);
  if (charset === 'latin1' && NON_ASCII.test(text) && decodeBytes(bytes, 'utf-8') !== undefined)
    throw new Hl7Refused("MSH-18 declares 8859/1 (Latin-1), but the message's non-ASCII bytes are UTF-8: UTF-8 text is sent with MSH-18 UNICODE UTF-8");
  return text;
}
const NOT_IN_CHARSET: Readonly<Record<Hl7Charset, string>> = {
  'utf-8': "MSH-18 declares UTF-8 (UNICODE UTF-8, or empty), but the message's bytes are not UTF-8: Latin-1 text is sent with MSH-18 8859/1",
  latin1:
    'MSH-18 declares 8859/1 (Latin-1), but the message holds bytes 0x80-0x9F, which are no Latin-1 characters: UTF-8 text is sent with MSH-18 UNICODE UTF-8',
  ascii: 'MSH-18 declares ASCII, but the message holds bytes above 0x7F',
};
