/**
 * What `ics` imports from `runes2` to fold a calendar file's long lines (75 characters, RFC 5545 §3.1): a
 * string split into user-perceived characters, and a substring by those. The bundles alias `runes2` to this
 * module (infra/bundling.ts LAMBDA_BUNDLE.alias), with shared/email/no-yup.ts: Node's own grapheme segmenter
 * (Intl.Segmenter, Unicode's rules, which runes2 approximates with tables of its own) instead of 6 KB of them,
 * so that the message sender's bundle stays within its target (issue #52). Folding never splits a character:
 * not a surrogate pair, an emoji sequence or a letter and its combining accent.
 */
// Made at the first fold, not when the bundle loads: ICU's break rules load with it, and most messages of a
// container (results ready, a kit dispatched) carry no calendar file.
let graphemes: Intl.Segmenter | undefined;

/** The user-perceived characters of `text`, in order. */
export const runes = (text: string): string[] =>
  Array.from((graphemes ??= new Intl.Segmenter('en', { granularity: 'grapheme' })).segment(text), ({ segment }) => segment);

/** `length` characters of `text` from `start` (default: to its end), counted as `runes` counts them: runes2's `substring`, substr-like. */
export const substring = (text: string, start: number, length?: number): string =>
  runes(text)
    .slice(start, length === undefined ? undefined : start + length)
    .join('');

export default runes;
